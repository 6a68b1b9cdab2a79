// The pure half of `npm run cli -- import` (src/cli/import-job.ts): the URLs it calls, the results
// it keeps, how it exits. The command itself runs against the real API in bench/import.ts.
import t from 'tap';
import { countsLine, exitCodeOf, failedResultsPath, importMode, isFailedResult, isGzipFile, jobErrorText, jobUrl, submitUrl } from '../../src/cli/import-job.js';

t.test('the submit URL names the country and the mode, under any path prefix of the API', async (t) => {
  t.equal(submitUrl('http://127.0.0.1:3000', 'de', 'upsert'), 'http://127.0.0.1:3000/de/imports?mode=upsert');
  t.equal(submitUrl('https://api.example.com/v1/', 'at', 'replace'), 'https://api.example.com/v1/at/imports?mode=replace');
});

t.test('the job URL follows the Location header, else is built from the job id', async (t) => {
  t.equal(jobUrl('http://127.0.0.1:3000', 'de', { id: 'imp_1' }, '/de/imports/imp_1'), 'http://127.0.0.1:3000/de/imports/imp_1');
  t.equal(jobUrl('http://h:1', 'de', { id: 'x' }, 'http://other:2/de/imports/x'), 'http://other:2/de/imports/x', 'an absolute Location is kept');
  t.equal(jobUrl('http://h:1/', 'de', { id: 'a b' }, null), 'http://h:1/de/imports/a%20b');
});

t.test('an unknown mode is refused with the modes there are', async (t) => {
  t.equal(importMode('replace'), 'replace');
  t.throws(() => importMode('merge'), /mode "merge" is not one of upsert, replace/);
});

t.test("only failed items' result lines are kept; blank and unreadable lines are not", async (t) => {
  const lines = [
    '{"line":1,"source_id":"a","status":"created","id":"1","version":1}',
    '{"line":2,"source_id":"b","status":"failed","error":{"type":"validation","message":"invalid","details":["zip: required"]}}',
    '',
    '{"line":3,"status":"unchanged"}',
    'not json',
    '{"line":4,"status":"failed","error":{"type":"validation","message":"line is not JSON","details":[]}}',
  ];
  t.same(
    lines.filter(isFailedResult).map((l) => JSON.parse(l).line),
    [2, 4],
  );
});

t.test('the failed results go beside the imported file, whether or not it is gzip', async (t) => {
  t.equal(failedResultsPath('/data/catalogue.ndjson'), '/data/catalogue.ndjson.failed.ndjson');
  t.equal(failedResultsPath('catalogue.ndjson.gz'), 'catalogue.ndjson.gz.failed.ndjson');
  t.ok(isGzipFile('catalogue.ndjson.GZ'));
  t.notOk(isGzipFile('catalogue.ndjson'));
});

t.test('the exit code is 0 only for a job that ran to its end, failed items or not', async (t) => {
  t.equal(exitCodeOf({ status: 'done' }), 0);
  t.equal(exitCodeOf({ status: 'cancelled' }), 1);
  t.equal(exitCodeOf({ status: 'failed' }), 1);
});

t.test("counts and a job's own error read as one line each", async (t) => {
  t.equal(countsLine({ lines: 5, processed: 5, created: 2, updated: 1, unchanged: 1, deleted: 0, failed: 1 }), 'lines 5, processed 5: created 2, updated 1, unchanged 1, deleted 0, failed 1');
  t.equal(jobErrorText({ error: { type: 'bad_request', message: 'the gzip body is corrupt' } }), 'bad_request: the gzip body is corrupt');
  t.equal(jobErrorText({ error: 'the gzip body is corrupt' }), 'the gzip body is corrupt');
  t.equal(jobErrorText({}), undefined);
});

// No personal data and no key reaches the logs: not through a database error whose query
// parameters carry them, not through the query string of a search.
import t from 'tap';
import { randomInt } from 'node:crypto';
import { createLogger } from '../../src/platform/logger.js';
import { build, listingInput, runId } from '../helper.js';

const lines: string[] = [];
const capture = createLogger('trace', 'test', {
  write: (line: string) => {
    lines.push(line);
  },
});
const { app, partner } = await build(t, { logger: capture, config: { LOG_SUCCESS_SAMPLE_RATE: 1 } });
const owner = await partner();
const key = owner.auth.authorization.slice('Bearer '.length);

const nameMarker = `Geheimname${runId}`;
const phoneMarker = `4930${String(randomInt(1e8)).padStart(8, '0')}`;
const sourceMarker = `quelle-${runId}-geheim`;

t.test('a database error is logged with its code but without the query, its parameters or the row', async (t) => {
  // A real PostgreSQL error on the insert of a listing named with the marker: scripts/test.sh adds
  // a check constraint refusing names containing "Geheimname" before the tests start (altering the
  // table here would wait for, and block, every other test file's transactions). The error's
  // message carries the query parameters and its detail the whole failing row.
  const res = await app.inject({
    method: 'POST',
    url: '/de/listings',
    headers: owner.auth,
    payload: listingInput({ name: `Bäckerei ${nameMarker}`, contact: { name: nameMarker, surname: 'Muster', title: '', gender: 'F' } }),
  });
  t.equal(res.statusCode, 500);
  t.equal(res.json().type, 'internal');
  t.ok(
    lines.some((line) => line.includes('23514')),
    'the error is logged with its SQLSTATE',
  );
  t.same(
    lines.filter((line) => line.includes(nameMarker)),
    [],
    'no line carries the name',
  );
});

t.test('searches are logged without their query string', async (t) => {
  const byPhone = await app.inject({ url: `/de/listings?phone=%2B${phoneMarker}`, headers: owner.auth });
  t.equal(byPhone.statusCode, 200);
  const bySource = await app.inject({ url: `/de/listings/map?source_id=${sourceMarker}`, headers: owner.auth });
  t.equal(bySource.statusCode, 200);
  t.ok(
    lines.some((line) => line.includes('"url":"/de/listings/map"')),
    'the path is logged',
  );
  t.same(
    lines.filter((line) => line.includes(phoneMarker)),
    [],
    'no line carries the phone number',
  );
  t.same(
    lines.filter((line) => line.includes(sourceMarker)),
    [],
    'no line carries the source_id',
  );
});

t.test('no line carries the API key', async (t) => {
  t.ok(lines.length > 0, `${lines.length} lines captured`);
  t.same(
    lines.filter((line) => line.includes(key)),
    [],
  );
});

t.test('one line per request: successful ones as sampled, failed ones always', async (t) => {
  const sampledLines: string[] = [];
  const sampledLogger = createLogger('info', 'api', {
    write: (line: string) => {
      sampledLines.push(line);
    },
  });
  const quiet = await build(t, { logger: sampledLogger, config: { LOG_SUCCESS_SAMPLE_RATE: 0 } });
  const { auth } = await quiet.partner();
  for (let i = 0; i < 5; i++) t.equal((await quiet.app.inject({ url: '/de/categories?name=Caf%C3%A9', headers: auth })).statusCode, 200);
  t.equal((await quiet.app.inject({ url: '/de/listings/999999999', headers: auth })).statusCode, 404);
  const requestLines = sampledLines.map((line) => JSON.parse(line) as { msg: string; statusCode?: number }).filter((line) => line.statusCode !== undefined);
  t.same(
    requestLines.map((line) => [line.msg, line.statusCode]),
    [['request refused', 404]],
    'only the failed request is logged, once',
  );
});

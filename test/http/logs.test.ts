// No personal data and no key reaches the logs: not through a database error whose query
// parameters carry them, not through the query string of a search.
import t from 'tap';
import { randomInt } from 'node:crypto';
import { createLogger } from '../../src/logger.js';
import { build, listingInput, runId } from '../helper.js';

const lines: string[] = [];
const capture = createLogger('trace', 'test', { write: (line: string) => { lines.push(line); } });
const { app, partner } = await build(t, { logger: capture });
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
    method: 'POST', url: '/de/listings', headers: owner.auth,
    payload: listingInput({ name: `Bäckerei ${nameMarker}`, contact: { name: nameMarker, surname: 'Muster', title: '', gender: 'F' } }),
  });
  t.equal(res.statusCode, 500);
  t.equal(res.json().type, 'internal');
  t.ok(lines.some((line) => line.includes('23514')), 'the error is logged with its SQLSTATE');
  t.same(lines.filter((line) => line.includes(nameMarker)), [], 'no line carries the name');
});

t.test('searches are logged without their query string', async (t) => {
  const byPhone = await app.inject({ url: `/de/listings?phone=%2B${phoneMarker}`, headers: owner.auth });
  t.equal(byPhone.statusCode, 200);
  const bySource = await app.inject({ url: `/de/listings/map?source_id=${sourceMarker}`, headers: owner.auth });
  t.equal(bySource.statusCode, 200);
  t.ok(lines.some((line) => line.includes('"url":"/de/listings/map"')), 'the path is logged');
  t.same(lines.filter((line) => line.includes(phoneMarker)), [], 'no line carries the phone number');
  t.same(lines.filter((line) => line.includes(sourceMarker)), [], 'no line carries the source_id');
});

t.test('no line carries the API key', async (t) => {
  t.ok(lines.length > 0, `${lines.length} lines captured`);
  t.same(lines.filter((line) => line.includes(key)), []);
});

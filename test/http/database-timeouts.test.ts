// A request blocked on a row lock another connection holds answers 503 within the lock timeout
// instead of waiting for the lock.
import t from 'tap';
import pg from 'pg';
import { build, config, listingInput, runId } from '../helper.js';

const LOCK_TIMEOUT_MS = 300;
const { app, partner } = await build(t, { config: { DB_LOCK_TIMEOUT_MS: LOCK_TIMEOUT_MS } });
const owner = await partner();

t.test('PUT on a listing whose row another transaction holds locked answers 503 within the lock timeout', async (t) => {
  const created = await app.inject({ method: 'POST', url: '/de/listings', headers: owner.auth, payload: listingInput() });
  t.equal(created.statusCode, 201);
  const id = Number(created.json().id);

  // Another session (an admin's psql, a stuck process) holds the row lock; it lets go after 5 s,
  // so that without a lock timeout the request waits that long and then succeeds.
  const holder = new pg.Client({ connectionString: config.DATABASE_URL });
  await holder.connect();
  await holder.query('begin');
  await holder.query('select id from listings where id = $1 for update', [id]);
  const letGo = setTimeout(() => {
    holder.query('rollback').catch(() => {});
  }, 5000);
  t.teardown(async () => {
    clearTimeout(letGo);
    await holder.query('rollback').catch(() => {});
    await holder.end();
  });

  const started = Date.now();
  const res = await app.inject({ method: 'PUT', url: `/de/listings/${id}`, headers: owner.auth, payload: listingInput({ name: `Gesperrt ${runId}` }) });
  const waited = Date.now() - started;
  t.equal(res.statusCode, 503);
  t.same(res.json(), { type: 'unavailable', message: 'a backing service is unavailable; retry later', details: [] });
  t.equal(res.headers['retry-after'], '1');
  t.ok(waited < LOCK_TIMEOUT_MS + 2000, `answered after ${waited} ms`);

  const after = await app.inject({ url: `/de/listings/${id}`, headers: owner.auth });
  t.equal(after.json().name, listingInput().name, 'nothing was written');
});

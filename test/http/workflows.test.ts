import t from 'tap';
import { mappings } from '../../src/db/schema.js';
import { build, listingInput, runId } from '../helper.js';

const { app, deps, partner } = await build(t);
const alice = await partner();
const bob = await partner();
const admin = await partner('admin');

const create = async (auth = alice.auth, overrides = {}) => (await app.inject({ method: 'POST', url: '/de/listings', headers: auth, payload: listingInput(overrides) })).json() as { id: string };
const call = (method: 'PUT' | 'DELETE' | 'GET', path: string, auth: Record<string, string>, payload?: object) =>
  app.inject({ method, url: `/de/listings/${path}`, headers: auth, ...(payload ? { payload } : {}) });
const read = async (id: string) => (await call('GET', id, alice.auth)).json();

t.test('claim and unclaim follow docs/contract.md §3 and are idempotent', async (t) => {
  const { id } = await create();
  t.equal((await call('PUT', `${id}/claim`, alice.auth)).statusCode, 204, 'claimed by caller: idempotent');
  t.equal((await call('PUT', `${id}/claim`, bob.auth)).statusCode, 409, 'claimed by another: 409');
  t.equal((await call('DELETE', `${id}/claim`, bob.auth)).statusCode, 403, 'unclaim by another: 403');
  t.equal((await read(id)).claimed, true);

  const unclaim = await call('DELETE', `${id}/claim`, alice.auth);
  t.equal(unclaim.statusCode, 204);
  t.equal(unclaim.body, '');
  t.equal((await read(id)).claimed, false);
  t.equal((await call('DELETE', `${id}/claim`, alice.auth)).statusCode, 204, 'unclaim of an unclaimed listing: idempotent');
  t.equal((await call('DELETE', `${id}/claim`, bob.auth)).statusCode, 204, 'anyone may unclaim an unclaimed listing');

  t.equal((await call('PUT', `${id}/claim`, bob.auth)).statusCode, 204, 'an unclaimed listing can be claimed');
  t.equal((await call('PUT', `${id}/listings`, bob.auth)).statusCode, 404, 'no such route');
  t.equal((await call('PUT', id, alice.auth, listingInput())).statusCode, 403, 'now alice is the other partner');
  t.equal((await call('PUT', `${id}/claim`, admin.auth)).statusCode, 204, 'an admin takes a claimed listing over');
  t.equal((await call('PUT', `${id}/claim`, bob.auth)).statusCode, 409);
});

t.test('PUT claim with a JSON body sets the mapping; an empty JSON body is no body', async (t) => {
  const { id } = await create(bob.auth);
  await call('DELETE', `${id}/claim`, bob.auth);
  const sourceId = `claim-${runId}`;
  t.equal((await call('PUT', `${id}/claim`, alice.auth, { source_id: sourceId })).statusCode, 204);
  const found = (await app.inject({ url: `/de/listings/map?source_id=${sourceId}`, headers: alice.auth })).json();
  t.same(found.mappings, [{ source_id: sourceId, service_id: id }]);
  const empty = await app.inject({ method: 'PUT', url: `/de/listings/${id}/claim`, headers: { ...alice.auth, 'content-type': 'application/json' }, payload: '' });
  t.equal(empty.statusCode, 204);
  const bad = await call('PUT', `${id}/claim`, alice.auth, { source_id: 'has space' });
  t.equal(bad.statusCode, 400);
});

t.test("suppress and unsuppress are idempotent and refused (409) on another partner's listing", async (t) => {
  const { id } = await create();
  for (const [method, expected] of [
    ['PUT', true],
    ['PUT', true],
    ['DELETE', false],
    ['DELETE', false],
  ] as const) {
    t.equal((await call(method, `${id}/suppress`, alice.auth)).statusCode, 204);
    t.equal((await read(id)).suppressed, expected);
  }
  t.equal((await call('PUT', `${id}/suppress`, bob.auth)).statusCode, 409);
  t.equal((await call('DELETE', `${id}/suppress`, bob.auth)).statusCode, 409);
  await call('DELETE', `${id}/claim`, alice.auth);
  t.equal((await call('PUT', `${id}/suppress`, bob.auth)).statusCode, 204, 'anyone may suppress an unclaimed listing');
  t.equal((await call('GET', id, bob.auth)).json().suppressed, true, 'GET still returns a suppressed listing');
});

t.test('only real changes bump the version', async (t) => {
  const { id } = await create();
  const version = async () => (await deps.database.pool.query('select version from listings where id = $1', [id])).rows[0].version;
  t.equal(await version(), 1);
  await call('PUT', `${id}/claim`, alice.auth);
  await call('DELETE', `${id}/suppress`, alice.auth);
  t.equal(await version(), 1, 'no-op calls write nothing');
  await call('PUT', `${id}/suppress`, alice.auth);
  await call('DELETE', `${id}/claim`, alice.auth);
  t.equal(await version(), 3);
});

t.test("offers: PUT, GET, DELETE; 403 and nothing stored on another partner's listing", async (t) => {
  const { id } = await create();
  t.equal((await call('GET', `${id}/offer`, alice.auth)).statusCode, 404, 'no offer yet');
  const offer = { message: '10 % off all bread', url: 'https://example.com/offer' };
  t.equal((await call('PUT', `${id}/offer`, alice.auth, offer)).statusCode, 204);
  const got = await call('GET', `${id}/offer`, bob.auth);
  t.equal(got.statusCode, 200);
  t.same(got.json(), offer);
  t.equal((await call('PUT', `${id}/offer`, bob.auth, { message: 'hijack', url: 'https://evil.example' })).statusCode, 403);
  t.same((await call('GET', `${id}/offer`, alice.auth)).json(), offer, 'nothing stored');
  t.equal((await call('DELETE', `${id}/offer`, bob.auth)).statusCode, 403);
  t.equal((await call('PUT', `${id}/offer`, alice.auth, { message: '', url: 'ftp://x' })).json().details.length, 2);
  t.equal((await call('DELETE', `${id}/offer`, alice.auth)).statusCode, 204);
  t.equal((await call('DELETE', `${id}/offer`, alice.auth)).statusCode, 204, 'idempotent');
  t.equal((await call('GET', `${id}/offer`, alice.auth)).statusCode, 404);
  t.equal((await call('PUT', '999999999/offer', alice.auth, offer)).statusCode, 404);
});

t.test("mappings: wildcard, only the caller's, sorted, both array names, removed with the listing", async (t) => {
  const prefix = `m${runId}`;
  const one = await create(alice.auth, { source_id: `${prefix}-b_1` });
  const two = await create(alice.auth, { source_id: `${prefix}-a_2` });
  await create(bob.auth, { source_id: `${prefix}-bob` });
  const res = await app.inject({ url: `/de/listings/map?source_id=${prefix}*`, headers: alice.auth });
  t.equal(res.statusCode, 200);
  const body = res.json();
  t.same(body.mappings, [
    { source_id: `${prefix}-a_2`, service_id: two.id },
    { source_id: `${prefix}-b_1`, service_id: one.id },
  ]);
  t.same(body.results, body.mappings, 'the same array under results');
  t.same([body.numFound, body.numReturned], [2, 2]);
  t.same((await app.inject({ url: `/de/listings/map?source_id=*${prefix.slice(2)}-b*`, headers: alice.auth })).json().numFound, 1, 'wildcard at the start');
  t.same((await app.inject({ url: `/de/listings/map?source_id=${prefix}-a%5F2`, headers: alice.auth })).json().numFound, 1, '_ is literal');
  t.same((await app.inject({ url: `/de/listings/map?source_id=${prefix}-a_`, headers: alice.auth })).json().numFound, 0, 'no prefix match without *');
  t.same(
    (await app.inject({ url: `/de/listings/map?source_id=${prefix}*`, headers: bob.auth })).json().mappings.map((m: { source_id: string }) => m.source_id),
    [`${prefix}-bob`],
    'bob sees only his',
  );
  t.equal((await app.inject({ url: '/de/listings/map?source_id=a%20b', headers: alice.auth })).statusCode, 400);
  await call('DELETE', one.id, alice.auth);
  t.equal((await app.inject({ url: `/de/listings/map?source_id=${prefix}*`, headers: alice.auth })).json().numFound, 1, 'a deleted listing loses its mapping');
});

t.test('mappings: at most 1000 returned, numFound counts all', async (t) => {
  const carol = await partner();
  const { id } = await create(carol.auth);
  const rows = Array.from({ length: 1001 }, (_, i) => ({ partnerId: carol.id, sourceId: `bulk-${String(i).padStart(4, '0')}`, listingId: Number(id), country: 'de' }));
  await deps.database.db.insert(mappings).values(rows);
  const body = (await app.inject({ url: '/de/listings/map?source_id=bulk-*', headers: carol.auth })).json();
  t.same([body.numFound, body.numReturned, body.mappings.length], [1001, 1000, 1000]);
  t.equal(body.mappings[999].source_id, 'bulk-0999', 'sorted by source_id');
  const all = (await app.inject({ url: '/de/listings/map', headers: carol.auth })).json();
  t.equal(all.numFound, 1001, "without source_id: all of the caller's mappings");
});

t.test('Idempotency-Key: a retry replays the first response and creates nothing', async (t) => {
  const key = `idem-${runId}-1`;
  const body = listingInput({ name: `Idempotent ${runId}` });
  const headers = { ...alice.auth, 'idempotency-key': key };
  const first = await app.inject({ method: 'POST', url: '/de/listings', headers, payload: body });
  t.equal(first.statusCode, 201);
  const retry = await app.inject({ method: 'POST', url: '/de/listings', headers, payload: body });
  t.equal(retry.statusCode, 201);
  t.same(retry.json(), first.json(), 'the same response');
  t.equal(retry.headers['idempotent-replayed'], 'true');
  const other = await app.inject({ method: 'POST', url: '/de/listings', headers, payload: { ...body, name: 'Different' } });
  t.equal(other.statusCode, 409);
  t.equal(other.json().type, 'conflict');
  const bobsTry = await app.inject({ method: 'POST', url: '/de/listings', headers: { ...bob.auth, 'idempotency-key': key }, payload: body });
  t.equal(bobsTry.statusCode, 201, 'keys are scoped to the partner');
  t.not(bobsTry.json().id, first.json().id);
  const count = await deps.database.pool.query('select count(*)::int as n from listings where name = $1 and created_by = $2', [body.name, alice.id]);
  t.equal(count.rows[0].n, 1, 'one listing');
});

t.test('Idempotency-Key: two concurrent requests create one listing', async (t) => {
  const body = listingInput({ name: `Concurrent ${runId}` });
  const headers = { ...alice.auth, 'idempotency-key': `idem-${runId}-2` };
  const [a, b] = await Promise.all([app.inject({ method: 'POST', url: '/de/listings', headers, payload: body }), app.inject({ method: 'POST', url: '/de/listings', headers, payload: body })]);
  t.same([a.statusCode, b.statusCode], [201, 201]);
  t.equal(a.json().id, b.json().id);
  const count = await deps.database.pool.query('select count(*)::int as n from listings where name = $1', [body.name]);
  t.equal(count.rows[0].n, 1);
});

t.test('Idempotency-Key: a failed request is not remembered', async (t) => {
  const headers = { ...alice.auth, 'idempotency-key': `idem-${runId}-3` };
  t.equal((await app.inject({ method: 'POST', url: '/de/listings', headers, payload: listingInput({ zip: '' }) })).statusCode, 400);
  t.equal((await app.inject({ method: 'POST', url: '/de/listings', headers, payload: listingInput() })).statusCode, 201);
  t.equal((await app.inject({ method: 'POST', url: '/de/listings', headers: { ...alice.auth, 'idempotency-key': 'x'.repeat(201) }, payload: listingInput() })).statusCode, 400);
});

t.test('rate limit: 429 after the configured limit, with Retry-After and RateLimit headers', async (t) => {
  const limited = await build(t, { config: { RATE_LIMIT_MAX: 3, RATE_LIMIT_WINDOW_MS: 2000, QUEUE_PREFIX: `rl-${runId}` } });
  const dave = await limited.partner();
  const statuses: number[] = [];
  let last: Awaited<ReturnType<typeof limited.app.inject>> | undefined;
  for (let i = 0; i < 4; i++) {
    last = await limited.app.inject({ url: '/de/categories?name=Caf%C3%A9', headers: dave.auth });
    statuses.push(last.statusCode);
  }
  t.same(statuses, [200, 200, 200, 429]);
  t.equal(last!.json().type, 'rate_limited');
  const retryAfter = Number(last!.headers['retry-after']);
  t.ok(retryAfter >= 1 && retryAfter <= 2, `Retry-After ${retryAfter}`);
  t.equal(last!.headers['ratelimit-limit'], '3');
  t.equal(last!.headers['ratelimit-remaining'], '0');
  const other = await limited.partner();
  t.equal((await limited.app.inject({ url: '/de/categories?name=Caf%C3%A9', headers: other.auth })).statusCode, 200, 'limits are per key');
  await new Promise((r) => setTimeout(r, retryAfter * 1000 + 100));
  t.equal((await limited.app.inject({ url: '/de/categories?name=Caf%C3%A9', headers: dave.auth })).statusCode, 200, 'allowed again after Retry-After');
});

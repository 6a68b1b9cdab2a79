// Partial updates and preconditions (docs/contract.md §20): ETags and 304, If-Match → 412 on every
// listing write with nothing stored, PATCH as a JSON Merge Patch, writes that change nothing, and
// dry runs that store and emit nothing.
import { readFileSync } from 'node:fs';
import { count, eq } from 'drizzle-orm';
import t from 'tap';
import { listingChanges, listingHistory, listings, outbox } from '../../src/db/schema.js';
import { build, listingInput, runId } from '../helper.js';

const { app, deps, partner } = await build(t);
const { db } = deps.database;
const owner = await partner();
const other = await partner();

type Auth = { authorization: string };
const tinyPng = readFileSync(new URL('../fixtures/images/tiny.png', import.meta.url)).toString('base64');
let n = 0;
const uniqueName = () => `Edits ${runId} ${++n}`;

async function create(auth: Auth = owner.auth, overrides = {}) {
  const res = await app.inject({ method: 'POST', url: '/de/listings', headers: auth, payload: listingInput({ name: uniqueName(), ...overrides }) });
  if (res.statusCode !== 201) throw new Error(`POST answered ${res.statusCode}: ${res.body}`);
  return res.json();
}

const read = (id: string, headers: Record<string, string> = {}) => app.inject({ url: `/de/listings/${id}`, headers: { ...owner.auth, ...headers } });

const patch = (id: string, body: unknown, headers: Record<string, string> = {}, query = '') =>
  app.inject({
    method: 'PATCH',
    url: `/de/listings/${id}${query}`,
    headers: { ...owner.auth, 'content-type': 'application/merge-patch+json', ...headers },
    payload: JSON.stringify(body),
  });

/** What a write leaves behind for listing `id`: its version, feed changes, outbox events and history rows. */
async function traces(id: string) {
  const listingId = Number(id);
  const [row] = await db.select({ version: listings.version }).from(listings).where(eq(listings.id, listingId));
  const counted = async (table: typeof listingChanges | typeof outbox | typeof listingHistory) => (await db.select({ n: count() }).from(table).where(eq(table.listingId, listingId)))[0]!.n;
  return { version: row!.version, changes: await counted(listingChanges), events: await counted(outbox), history: await counted(listingHistory) };
}

t.test('every single-listing answer carries the version as a strong ETag; If-None-Match with it answers 304 without a body', async (t) => {
  const created = await create();
  t.equal(created.version, 1);
  const got = await read(created.id);
  t.equal(got.statusCode, 200);
  t.equal(got.headers.etag, '"1"');
  t.equal(got.json().version, 1);
  const cached = await read(created.id, { 'if-none-match': '"1"' });
  t.equal(cached.statusCode, 304);
  t.equal(cached.body, '');
  t.equal(cached.headers.etag, '"1"');
  t.equal((await read(created.id, { 'if-none-match': 'W/"1"' })).statusCode, 304, 'If-None-Match compares weakly');
  t.equal((await read(created.id, { 'if-none-match': '"0", "7"' })).statusCode, 200);
  const put = await app.inject({ method: 'PUT', url: `/de/listings/${created.id}`, headers: owner.auth, payload: listingInput({ name: uniqueName() }) });
  t.equal(put.headers.etag, '"2"');
  t.equal((await read(created.id, { 'if-none-match': '"1"' })).statusCode, 200, 'a changed listing is sent again');
  const posted = await app.inject({ method: 'POST', url: '/de/listings', headers: owner.auth, payload: listingInput({ name: uniqueName() }) });
  t.equal(posted.headers.etag, '"1"');
  t.equal((await read(created.id, { 'if-none-match': 'garbage' })).statusCode, 400, 'a malformed tag list is refused');
});

t.test('If-Match naming another version answers 412 with the current version on every listing write, and stores nothing', async (t) => {
  const { id } = await create();
  const image = await app.inject({ method: 'POST', url: `/de/listings/${id}/images`, headers: owner.auth, payload: { type: 'logo', caption: 'c', base64: tinyPng } });
  t.equal(image.statusCode, 201);
  const imageId = image.json().id;
  const before = await traces(id);
  const stale = { ...owner.auth, 'if-match': '"1"' };
  const writes: [string, string, unknown?][] = [
    ['PUT', `/de/listings/${id}`, listingInput({ name: 'Never stored' })],
    ['PATCH', `/de/listings/${id}`, { name: 'Never stored' }],
    ['DELETE', `/de/listings/${id}`],
    ['PUT', `/de/listings/${id}/claim`],
    ['DELETE', `/de/listings/${id}/claim`],
    ['PUT', `/de/listings/${id}/suppress`],
    ['DELETE', `/de/listings/${id}/suppress`],
    ['PUT', `/de/listings/${id}/offer`, { message: 'Never stored', url: 'https://example.com/offer' }],
    ['DELETE', `/de/listings/${id}/offer`],
    ['POST', `/de/listings/${id}/images`, { type: 'photo', caption: 'never', base64: tinyPng }],
    ['PUT', `/de/listings/${id}/images/${imageId}`, { caption: 'never' }],
    ['DELETE', `/de/listings/${id}/images/${imageId}`],
    ['POST', `/de/listings/${id}/restore`, { version: 1 }],
  ];
  for (const [method, url, payload] of writes) {
    const res = await app.inject({ method: method as 'PUT', url, headers: stale, ...(payload === undefined ? {} : { payload: payload as object }) });
    t.equal(res.statusCode, 412, `${method} ${url}`);
    t.same(res.json().type, 'precondition_failed');
    t.same(res.json().details, { current_version: before.version }, `${method} ${url} names the current version`);
  }
  t.same(await traces(id), before, 'no version, change, event or history row was written');
  t.equal((await app.inject({ url: `/de/listings/${id}/offer`, headers: owner.auth })).statusCode, 404, 'no offer stored');
  t.equal((await app.inject({ url: `/de/listings/${id}/images`, headers: owner.auth })).json().numFound, 1);
  t.equal((await read(id)).json().suppressed, false);
});

t.test('If-Match naming the current version, or *, lets the write through; a weak tag never matches', async (t) => {
  const { id } = await create();
  const res = await patch(id, { description: 'eins' }, { 'if-match': '"1"' });
  t.equal(res.statusCode, 200);
  t.equal(res.headers.etag, '"2"');
  t.equal((await patch(id, { description: 'zwei' }, { 'if-match': '"9", "2"' })).statusCode, 200, 'a list naming it');
  t.equal((await patch(id, { description: 'drei' }, { 'if-match': '*' })).statusCode, 200);
  t.equal((await patch(id, { description: 'vier' }, { 'if-match': 'W/"4"' })).statusCode, 412, 'If-Match compares strongly');
  const claim = await app.inject({ method: 'PUT', url: `/de/listings/${id}/suppress`, headers: { ...owner.auth, 'if-match': '"4"' } });
  t.equal(claim.statusCode, 204);
  t.equal((await read(id)).json().version, 5);
});

t.test("ownership is checked before the precondition: another partner's listing answers 403, not 412", async (t) => {
  const { id } = await create(other.auth);
  const res = await patch(id, { name: 'x' }, { 'if-match': '"99"' });
  t.equal(res.statusCode, 403);
});

t.test('PATCH merges: lists whole, hours by day, null clears nullable fields, sub-object ids kept', async (t) => {
  const created = await create(owner.auth, {
    emails: [{ address: 'a@example.com' }, { address: 'b@example.com' }],
    hours: { monday: [{ start: '08:00', end: '12:00' }], tuesday: [{ start: '09:00', end: '17:00' }] },
    temporarily_closed: { until: '2030-01-31' },
  });
  const res = await patch(created.id, {
    phones: [{ type: 'mobile', number: '+4915112345678' }],
    emails: [created.emails[1]],
    hours: { monday: [] },
    description: null,
    contact: null,
    latitude: null,
    longitude: null,
    temporarily_closed: null,
  });
  t.equal(res.statusCode, 200, res.body);
  const patched = res.json();
  t.same(
    patched.phones.map((p: { number: string }) => p.number),
    ['+4915112345678'],
    'the list replaced whole',
  );
  t.same(patched.emails, [created.emails[1]], 'a kept sub-object keeps its id');
  t.same(patched.hours.monday, []);
  t.same(patched.hours.tuesday, [{ start: '09:00:00', end: '17:00:00' }], 'other days untouched');
  t.same([patched.description, patched.contact, patched.latitude, patched.longitude, patched.temporarily_closed], [null, null, null, null, null]);
  t.same([patched.name, patched.keywords, patched.links], [created.name, created.keywords, created.links], 'members absent stay as stored');
  t.same(patched.version, 2);
  t.same((await read(created.id)).json(), { ...patched, images: [] }, 'what PATCH answered is what was stored');
});

t.test('PATCH accepts application/json as the same; other media types answer 415', async (t) => {
  const { id } = await create();
  const json = await app.inject({ method: 'PATCH', url: `/de/listings/${id}`, headers: owner.auth, payload: { keywords: ['Kuchen'] } });
  t.equal(json.statusCode, 200);
  t.same(json.json().keywords, ['Kuchen']);
  const text = await app.inject({ method: 'PATCH', url: `/de/listings/${id}`, headers: { ...owner.auth, 'content-type': 'text/plain' }, payload: '{}' });
  t.equal(text.statusCode, 415);
});

t.test('PATCH is checked as the PUT of the merged listing: null on a required field and every invalid field are a 400', async (t) => {
  const { id } = await create();
  const before = await traces(id);
  const nulled = await patch(id, { name: null, zip: 'x'.repeat(30) });
  t.equal(nulled.statusCode, 400);
  t.same(nulled.json().type, 'validation');
  t.match(nulled.json().details, ['name: must not be null: it is required', /^zip: /]);
  const half = await patch(id, { latitude: null });
  t.equal(half.statusCode, 400, 'latitude and longitude are cleared together');
  t.match(half.json().details, [/^latitude, longitude: /]);
  const unknown = await patch(id, { categories: [{ id: 'no/such' }], colour: 'red' });
  t.equal(unknown.statusCode, 400);
  t.match(unknown.json().details, ['colour: is not a known field']);
  const category = await patch(id, { categories: [{ id: 'no/such' }] });
  t.match(category.json().details, [/^categories\[0\]\.id: unknown category/]);
  t.equal((await patch(id, [1, 2])).statusCode, 400, 'a patch that is no object');
  t.same(await traces(id), before);
});

t.test('a PUT or PATCH that changes nothing answers 200 with the same version and writes no version, change, event or history', async (t) => {
  const created = await create();
  const before = await traces(created.id);
  const put = await app.inject({ method: 'PUT', url: `/de/listings/${created.id}`, headers: owner.auth, payload: listingInput({ name: created.name }) });
  t.equal(put.statusCode, 200);
  t.equal(put.headers.etag, '"1"');
  t.same(put.json(), { ...created, images: [] }, 'the stored listing, its sub-object ids too, though the body sent none');
  const sentBack = await app.inject({ method: 'PUT', url: `/de/listings/${created.id}`, headers: owner.auth, payload: put.json() });
  t.equal(sentBack.json().version, 1, 'a listing PUT back as it was read');
  const same = await patch(created.id, { name: created.name, hours: { monday: created.hours.monday }, time_zone: 'Europe/Berlin' });
  t.equal(same.statusCode, 200);
  t.equal(same.json().version, 1);
  t.equal((await patch(created.id, {})).json().version, 1, 'an empty patch');
  t.same(await traces(created.id), before);
});

t.test('a PUT that only sets a new source_id stores the mapping but no version', async (t) => {
  const created = await create();
  const sourceId = `edits-${runId}-${++n}`;
  const res = await app.inject({ method: 'PUT', url: `/de/listings/${created.id}`, headers: owner.auth, payload: listingInput({ name: created.name, source_id: sourceId }) });
  t.equal(res.json().version, 1);
  const map = await app.inject({ url: `/de/listings/map?source_id=${sourceId}`, headers: owner.auth });
  t.same(map.json().mappings, [{ source_id: sourceId, service_id: created.id }]);
});

t.test('a changing PUT resent without sub-object ids keeps the ids of the lists it did not change', async (t) => {
  const created = await create();
  const res = await app.inject({ method: 'PUT', url: `/de/listings/${created.id}`, headers: owner.auth, payload: listingInput({ name: uniqueName() }) });
  t.equal(res.json().version, 2);
  t.same([res.json().emails, res.json().phones, res.json().links], [created.emails, created.phones, created.links]);
});

t.test('dry_run on create answers as the create would, with id null and version 0, and stores and emits nothing', async (t) => {
  const name = uniqueName();
  const sourceId = `dry-${runId}-${++n}`;
  const start = await db.select({ n: count() }).from(listingChanges);
  const res = await app.inject({
    method: 'POST',
    url: '/de/listings?dry_run=true',
    headers: { ...owner.auth, 'idempotency-key': `dry-${runId}` },
    payload: listingInput({ name, source_id: sourceId }),
  });
  t.equal(res.statusCode, 201);
  t.notOk(res.headers.etag, 'nothing stored, no tag');
  const preview = res.json();
  t.same([preview.id, preview.url, preview.version, preview.emails[0].id, preview.claimed], [null, null, 0, null, true]);
  t.equal(preview.name, name);
  t.same(preview.categories, [{ id: 'shop/bakery', name: 'Bäckerei' }]);
  t.same(await db.select({ id: listings.id }).from(listings).where(eq(listings.name, name)), []);
  t.same(await db.select({ n: count() }).from(listingChanges), start, 'no change recorded');
  t.equal((await app.inject({ url: `/de/listings/map?source_id=${sourceId}`, headers: owner.auth })).json().numFound, 0);
  const real = await app.inject({ method: 'POST', url: '/de/listings', headers: { ...owner.auth, 'idempotency-key': `dry-${runId}` }, payload: listingInput({ name, source_id: sourceId }) });
  t.equal(real.statusCode, 201, 'the key stays free for the real write');
  t.equal(real.json().version, 1);
  const taken = await app.inject({ method: 'POST', url: '/de/listings?dry_run=true', headers: owner.auth, payload: listingInput({ name, source_id: sourceId }) });
  t.equal(taken.statusCode, 409, 'a dry run checks source_id uniqueness');
  const invalid = await app.inject({ method: 'POST', url: '/de/listings?dry_run=true', headers: owner.auth, payload: listingInput({ categories: [{ id: 'no/such' }] }) });
  t.equal(invalid.statusCode, 400);
});

t.test('dry_run on PUT and PATCH answers as the write would and stores nothing; it honours If-Match', async (t) => {
  const created = await create();
  const before = await traces(created.id);
  const put = await app.inject({
    method: 'PUT',
    url: `/de/listings/${created.id}?dry_run=true`,
    headers: owner.auth,
    payload: listingInput({ name: 'Vorschau', emails: [created.emails[0], { address: 'neu@example.com' }] }),
  });
  t.equal(put.statusCode, 200);
  t.same([put.json().name, put.json().version, put.json().id], ['Vorschau', 2, created.id]);
  t.same(put.json().emails, [created.emails[0], { id: null, address: 'neu@example.com' }], 'a new sub-object has no id yet');
  t.notOk(put.headers.etag);
  const patched = await patch(created.id, { description: 'Vorschau' }, {}, '?dry_run=true');
  t.same([patched.statusCode, patched.json().description, patched.json().version], [200, 'Vorschau', 2]);
  t.equal((await patch(created.id, { description: 'x' }, { 'if-match': '"5"' }, '?dry_run=true')).statusCode, 412);
  t.equal((await patch(created.id, { name: null }, {}, '?dry_run=true')).statusCode, 400);
  t.same(await traces(created.id), before);
  t.same((await read(created.id)).json().name, created.name);
});

t.test("a dry run over another partner's listing answers 403 as the write would", async (t) => {
  const { id } = await create(other.auth);
  t.equal((await patch(id, { name: 'x' }, {}, '?dry_run=true')).statusCode, 403);
});

t.test('each write that changes something records one change naming the fields it touched; a no-op in between records none', async (t) => {
  const created = await create();
  await patch(created.id, { description: 'a' });
  await patch(created.id, { description: 'a' });
  await patch(created.id, { description: 'b' });
  const kinds = await db
    .select({ kind: listingChanges.kind, fields: listingChanges.fields })
    .from(listingChanges)
    .where(eq(listingChanges.listingId, Number(created.id)))
    .orderBy(listingChanges.id);
  t.same(kinds, [
    { kind: 'created', fields: kinds[0]!.fields },
    { kind: 'updated', fields: ['description', 'version'] },
    { kind: 'updated', fields: ['description', 'version'] },
  ]);
  t.ok(kinds[0]!.fields.includes('name') && kinds[0]!.fields.includes('contact'), 'a create touches every field');
});

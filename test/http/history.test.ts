// A listing's history (docs/contract.md §21): field-level diffs of every version with who made them,
// private reviews invisible, paging, the fold back to the current listing, ?version=n, restore and
// the deleted listing's history for admins only.
import { readFileSync } from 'node:fs';
import t from 'tap';
import { build, listingInput, runId } from '../helper.js';

const { app, partner } = await build(t);
const owner = await partner();
const other = await partner();
const admin = await partner('admin');

type Auth = { authorization: string };
interface FieldChange {
  field: string;
  from: unknown;
  to: unknown;
}
interface Entry {
  version: number;
  at: string;
  change: string;
  by: string;
  by_partner?: string | null;
  channel?: string;
  fields: FieldChange[];
}

const tinyPng = readFileSync(new URL('../fixtures/images/tiny.png', import.meta.url)).toString('base64');
let n = 0;
const uniqueName = () => `History ${runId} ${++n}`;

async function create(auth: Auth = owner.auth) {
  const res = await app.inject({ method: 'POST', url: '/de/listings', headers: auth, payload: listingInput({ name: uniqueName() }) });
  if (res.statusCode !== 201) throw new Error(`POST answered ${res.statusCode}: ${res.body}`);
  return res.json();
}

async function write(method: string, url: string, auth: Auth, payload?: object) {
  const res = await app.inject({ method: method as 'PUT', url, headers: auth, ...(payload ? { payload } : {}) });
  if (res.statusCode >= 300) throw new Error(`${method} ${url} answered ${res.statusCode}: ${res.body}`);
  return res;
}

const history = (id: string, auth: Auth, query = '') => app.inject({ url: `/de/listings/${id}/history${query}`, headers: auth });
const versions = async (id: string, auth: Auth = owner.auth): Promise<Entry[]> => {
  const res = await history(id, auth, '?limit=100');
  if (res.statusCode !== 200) throw new Error(`history answered ${res.statusCode}: ${res.body}`);
  return res.json().versions;
};
const fieldsOf = (entry: Entry) => entry.fields.map((f) => f.field);

t.test('each version lists the fields it changed with their values before and after, and who changed them', async (t) => {
  const created = await create();
  await write('PATCH', `/de/listings/${created.id}`, owner.auth, { name: 'Neuer Name', keywords: ['Kuchen'] });
  await write('DELETE', `/de/listings/${created.id}/claim`, owner.auth);
  await write('PATCH', `/de/listings/${created.id}`, other.auth, { description: 'vom anderen' });
  await write('PUT', `/de/listings/${created.id}/suppress`, admin.auth);
  const entries = await versions(created.id);
  t.same(
    entries.map((e) => [e.version, e.change, e.by]),
    [
      [5, 'suppressed', 'admin'],
      [4, 'updated', 'partner'],
      [3, 'unclaimed', 'you'],
      [2, 'updated', 'you'],
      [1, 'created', 'you'],
    ],
  );
  t.same(entries[3]!.fields, [
    { field: 'name', from: created.name, to: 'Neuer Name' },
    { field: 'keywords', from: ['Brot'], to: ['Kuchen'] },
    { field: 'version', from: 1, to: 2 },
  ]);
  t.same(entries[2]!.fields, [
    { field: 'claimed', from: true, to: false },
    { field: 'version', from: 2, to: 3 },
  ]);
  t.same(fieldsOf(entries[0]!), ['suppressed', 'version']);
  t.notOk('by_partner' in entries[0]!, 'only admins see who');
  t.same([...fieldsOf(entries[4]!)].sort(), Object.keys({ ...created, images: [] }).sort(), 'a create touches every field');
  t.ok(
    entries[4]!.fields.every((f) => f.from === null || f.field === 'contact'),
    'a create changes every field from nothing',
  );
  t.same(
    entries[4]!.fields.find((f) => f.field === 'contact'),
    { field: 'contact', from: '<hidden>', to: '<hidden>' },
    'the owner no longer claims the listing: its contacts are hidden',
  );

  const seenByOther = await versions(created.id, other.auth);
  t.same(
    seenByOther.map((e) => e.by),
    ['admin', 'you', 'partner', 'partner', 'partner'],
  );
  const seenByAdmin = await versions(created.id, admin.auth);
  t.same(
    seenByAdmin.map((e) => [e.by, e.by_partner, e.channel]),
    [
      ['you', String(admin.id), 'admin'],
      ['partner', String(other.id), 'api'],
      ['partner', String(owner.id), 'api'],
      ['partner', String(owner.id), 'api'],
      ['partner', String(owner.id), 'api'],
    ],
  );
});

t.test('applying the fields of every version in order to an empty object gives the current listing', async (t) => {
  const created = await create();
  const url = `/de/listings/${created.id}`;
  await write('PATCH', url, owner.auth, { phones: [{ type: 'mobile', number: '+4915112345678' }], hours: { friday: [{ start: '10:00', end: '14:00' }] } });
  const image = await write('POST', `${url}/images`, owner.auth, { type: 'logo', caption: 'Logo', base64: tinyPng });
  await write('PUT', `${url}/images/${image.json().id}`, owner.auth, { caption: 'Neues Logo' });
  await write('PUT', `${url}/offer`, owner.auth, { message: 'Angebot', url: 'https://example.com/offer' });
  await write('PATCH', url, owner.auth, { contact: null, temporarily_closed: { until: null } });
  await write('PUT', `${url}/suppress`, owner.auth);
  await write('POST', `${url}/reviews`, admin.auth, { source_id: `h-${runId}-${++n}`, reviewer: 'R', reviewed: '', title: '', text: 'gut', rating: 5, date_time: '2026-05-01T12:00:00+02:00' });
  const current = (await app.inject({ url, headers: owner.auth })).json();
  const entries = await versions(created.id);
  t.equal(entries[0]!.version, current.version);
  t.same(
    entries.map((e) => e.version),
    Array.from({ length: current.version }, (_, i) => current.version - i),
    'every version, none twice (the offer moved none)',
  );
  t.same(fieldsOf(entries[0]!), ['version'], 'a website review moves only the version');
  const replayed: Record<string, unknown> = {};
  for (const entry of [...entries].reverse()) for (const { field, to } of entry.fields) replayed[field] = to;
  t.same(replayed, current);
});

t.test("a partner's private review makes no version: its author and others see the same history", async (t) => {
  const created = await create();
  await write('POST', `/de/listings/${created.id}/reviews`, other.auth, {
    source_id: `h-${runId}-${++n}`,
    reviewer: 'R',
    reviewed: '',
    title: '',
    text: 'privat',
    rating: 2,
    date_time: '2026-05-01T12:00:00+02:00',
  });
  t.same(
    (await versions(created.id, other.auth)).map((e) => e.version),
    [1],
    'its author',
  );
  t.same(
    (await versions(created.id, owner.auth)).map((e) => e.version),
    [1],
    'another partner',
  );
  t.same(
    (await versions(created.id, admin.auth)).map((e) => e.version),
    [1],
    'an admin',
  );
});

t.test('a past contact is shown to the claimant and admins, "<hidden>" to other partners', async (t) => {
  const created = await create();
  await write('PATCH', `/de/listings/${created.id}`, owner.auth, { contact: { name: 'Berta', surname: 'Neu', title: 'Dr.', gender: 'F' } });
  const contactOf = (entries: Entry[]) => entries[0]!.fields.find((f) => f.field === 'contact');
  t.same(contactOf(await versions(created.id, owner.auth))?.from, created.contact);
  t.same(contactOf(await versions(created.id, admin.auth))?.to, { name: 'Berta', surname: 'Neu', title: 'Dr.', gender: 'F' });
  t.same(contactOf(await versions(created.id, other.auth)), { field: 'contact', from: '<hidden>', to: '<hidden>' });
  const past = await app.inject({ url: `/de/listings/${created.id}?version=1`, headers: other.auth });
  t.equal(past.json().contact, null, 'nor in a past version');
});

t.test('pages: newest first, `limit` at a time, `next` as `before` until the oldest', async (t) => {
  const created = await create();
  for (let i = 0; i < 6; i++) await write('PATCH', `/de/listings/${created.id}`, owner.auth, { description: `Fassung ${i}` });
  const seen: number[] = [];
  let query = '?limit=3';
  for (;;) {
    const res = await history(created.id, owner.auth, query);
    t.equal(res.statusCode, 200);
    const { versions: page, next } = res.json();
    seen.push(...page.map((e: Entry) => e.version));
    if (next === undefined) break;
    query = `?limit=3&before=${next}`;
  }
  t.same(seen, [7, 6, 5, 4, 3, 2, 1]);
  const middle = (await history(created.id, owner.auth, '?before=4&limit=2')).json();
  t.same(
    middle.versions.map((e: Entry) => e.version),
    [3, 2],
  );
  t.same(middle.versions[0].fields[0], { field: 'description', from: 'Fassung 0', to: 'Fassung 1' });
  t.equal(middle.next, 2);
  t.equal((await history(created.id, owner.auth, '?limit=101')).statusCode, 400);
  t.equal((await history('999999999', owner.auth)).statusCode, 404);
});

t.test('?version=n answers the listing as it was, with its ETag; unknown versions answer 404', async (t) => {
  const created = await create();
  await write('PATCH', `/de/listings/${created.id}`, owner.auth, { name: 'Zweite Fassung', phones: [] });
  await write('PATCH', `/de/listings/${created.id}`, owner.auth, { name: 'Dritte Fassung' });
  const first = await app.inject({ url: `/de/listings/${created.id}?version=1`, headers: owner.auth });
  t.equal(first.statusCode, 200);
  t.equal(first.headers.etag, '"1"');
  t.same(first.json(), { ...created, images: [] });
  const second = (await app.inject({ url: `/de/listings/${created.id}?version=2`, headers: owner.auth })).json();
  t.same([second.name, second.phones, second.version], ['Zweite Fassung', [], 2]);
  const current = await app.inject({ url: `/de/listings/${created.id}?version=3`, headers: owner.auth });
  t.same(current.json(), (await app.inject({ url: `/de/listings/${created.id}`, headers: owner.auth })).json());
  t.equal((await app.inject({ url: `/de/listings/${created.id}?version=1`, headers: { ...owner.auth, 'if-none-match': '"1"' } })).statusCode, 304);
  t.equal((await app.inject({ url: `/de/listings/${created.id}?version=4`, headers: owner.auth })).statusCode, 404);
  t.equal((await app.inject({ url: `/de/listings/${created.id}?version=0`, headers: owner.auth })).statusCode, 400);
  t.equal((await app.inject({ url: `/at/listings/${created.id}?version=1`, headers: owner.auth })).statusCode, 404);
});

t.test('restore writes the content of a version as a new version, with ids of sub-objects still held kept', async (t) => {
  const created = await create();
  const url = `/de/listings/${created.id}`;
  await write('PATCH', url, owner.auth, { name: 'Falsch', emails: [], description: null });
  await write('PUT', `${url}/suppress`, owner.auth);
  const restored = await app.inject({ method: 'POST', url: `${url}/restore`, headers: { ...owner.auth, 'if-match': '"3"' }, payload: { version: 1 } });
  t.equal(restored.statusCode, 200, restored.body);
  t.equal(restored.headers.etag, '"4"');
  const listing = restored.json();
  t.same([listing.name, listing.description, listing.version, listing.suppressed], [created.name, created.description, 4, true], 'content restored, suppression left as it is');
  t.same(
    listing.emails.map((e: { address: string }) => e.address),
    created.emails.map((e: { address: string }) => e.address),
  );
  t.same(listing.phones, created.phones, 'a sub-object the listing still has keeps its id');
  const [latest] = await versions(created.id);
  t.same([latest!.change, fieldsOf(latest!)], ['updated', ['name', 'description', 'emails', 'version']]);
  const again = await app.inject({ method: 'POST', url: `${url}/restore`, headers: owner.auth, payload: { version: 4 } });
  t.same([again.statusCode, again.json().version], [200, 4], 'restoring the current content changes nothing');
  t.equal((await app.inject({ method: 'POST', url: `${url}/restore`, headers: owner.auth, payload: { version: 9 } })).statusCode, 404);
  t.equal((await app.inject({ method: 'POST', url: `${url}/restore`, headers: other.auth, payload: { version: 1 } })).statusCode, 403);
});

t.test("a deleted listing's history and versions are for admins only", async (t) => {
  const created = await create();
  await write('DELETE', `/de/listings/${created.id}`, owner.auth);
  t.equal((await history(created.id, owner.auth)).statusCode, 404);
  t.equal((await app.inject({ url: `/de/listings/${created.id}?version=1`, headers: owner.auth })).statusCode, 404);
  const entries = await versions(created.id, admin.auth);
  t.same(
    entries.map((e) => [e.version, e.change, fieldsOf(e)]),
    [
      [2, 'deleted', ['version']],
      [1, 'created', fieldsOf(entries[1]!)],
    ],
  );
  const first = await app.inject({ url: `/de/listings/${created.id}?version=1`, headers: admin.auth });
  t.same([first.statusCode, first.json().name], [200, created.name]);
});

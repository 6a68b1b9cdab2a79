import t from 'tap';
import { eq } from 'drizzle-orm';
import { listings } from '../../src/db/schema.js';
import { build, config, eventually, INDEXED_WITHIN_MS, indexedDocument, listingInput, refreshEveryCopy, runId, startIndexer } from '../helper.js';
import type { ListingInput } from '../../src/schemas/listing.js';

const { app, deps, partner } = await build(t);
await startIndexer(t, deps);
const owner = await partner();
const caller = { partnerId: owner.id, name: 'owner', role: 'partner' as const };

// A word no other listing has: the run id spelt in letters, so fuzzy matching sees only ours.
const word = (salt: string) => `${salt}${runId}`.replace(/\d/g, (d) => 'qwrtzpsdfg'[Number(d)]!).replace(/[^a-z]/g, 'x');
const town = `Testdorf ${word('t')}`;
const zip = String(10000 + Math.floor(Math.random() * 80000));

async function create(overrides: Partial<ListingInput>) {
  const res = await app.inject({ method: 'POST', url: '/de/listings', headers: owner.auth, payload: listingInput({ place: town, zip, ...overrides }) });
  if (res.statusCode !== 201) throw new Error(`create failed: ${res.body}`);
  return res.json() as { id: string; version?: number };
}

const get = (query: string) => app.inject({ url: `/de/listings?${query}`, headers: owner.auth });

/** Waits until the query finds `count` listings, then returns the body. */
async function settled(query: string, count: number, timeoutMs = 4000) {
  const body = await eventually(
    async () => {
      const res = await get(query);
      const body = res.json();
      return res.statusCode === 200 && body.numFound === count ? body : undefined;
    },
    timeoutMs,
    `${count} results for ${query}`,
  );
  await refreshEveryCopy(deps, 'de');
  return body;
}

/** Changes stored fields of a listing through the write path (a new version reaches the index). */
async function setStored(id: string, values: Partial<typeof listings.$inferInsert>) {
  await deps.listingWrites.changeListing(caller, 'de', Number(id), 'forbidden', async (tx) => {
    await tx
      .update(listings)
      .set(values)
      .where(eq(listings.id, Number(id)));
    return { result: undefined, change: 'updated' as const };
  });
}

const KM_PER_DEGREE = (Math.PI * 6371.0087714) / 180;
const centre = { lat: 47.5 + Math.random(), lon: 10 + Math.random() };
const north = (km: number) => ({ latitude: centre.lat + km / KM_PER_DEGREE, longitude: centre.lon });
function haversineKm(a: { lat: number; lon: number }, b: { lat: number; lon: number }) {
  const rad = Math.PI / 180;
  const h = Math.sin(((b.lat - a.lat) * rad) / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(((b.lon - a.lon) * rad) / 2) ** 2;
  return 2 * 6371.0087714 * Math.asin(Math.sqrt(h));
}

const bakery = word('zuckerbackerei');
const street = `Kaiserstraße ${word('s')}`.slice(0, 60);
const a = await create({ name: `Café ${bakery}`, address: `${street} 12a`, phones: [{ type: 'landline', number: '+4930111111' }], ...north(1), categories: [{ id: 'amenity/cafe' }] });
const b = await create({ name: `Grosse ${bakery} Meister`, address: `${street} 14`, phones: [{ type: 'landline', number: '+4930222222' }], ...north(5), categories: [{ id: 'shop/bakery' }] });
const c = await create({ name: `Meister Grosse ${word('other')}`, address: '3 Rue de Rivoli', ...north(19.9), categories: [{ id: 'shop/bakery' }] });
const far = await create({ name: `Fern ${bakery}`, address: 'Fernweg 1', ...north(20.1), categories: [{ id: 'shop/bakery' }] });
const hidden = await create({ name: `Versteckt ${bakery}`, address: 'Geheimweg 2', ...north(2), active: false, categories: [{ id: 'shop/bakery' }] });
const suppressed = await create({ name: `Gesperrt ${bakery}`, address: 'Geheimweg 3', ...north(3), phones: [{ type: 'landline', number: '+4930111111' }], categories: [{ id: 'shop/bakery' }] });
await setStored(suppressed.id, { suppressed: true });
// The count below is also reached before the suppressed listing is indexed at all; only its
// suppressed version in the index proves that searches hide it.
await eventually(async () => ((await indexedDocument(deps, 'de', suppressed.id))?.source.suppressed === true ? true : undefined), INDEXED_WITHIN_MS, 'the suppressed version indexed');
const place = encodeURIComponent(town);
await settled(`street=*&place=${place}&postCode=${zip}`, 5); // all but the suppressed one

t.test('filtered search by ids keeps the given order, skips unknown ids and hides suppressed listings', async (t) => {
  const res = await get(`ids=${c.id},999999999,${a.id},9000000000000000000,${suppressed.id},${hidden.id}`);
  t.equal(res.statusCode, 200);
  const body = res.json();
  t.equal(body.numFound, 3);
  t.equal(body.numReturned, 3);
  t.same(
    body.listings.map((l: { id: string }) => l.id),
    [c.id, a.id, hidden.id],
    'inactive listings appear in filtered search',
  );
  t.notOk('contact' in body.listings[0], 'no contact in filtered search');
  t.same(body.listings[0].images, []);
  const page = (await get(`ids=${c.id},${a.id},${hidden.id}&limit=1&offset=1`)).json();
  t.same([page.numFound, page.numReturned, page.listings[0].id], [3, 1, a.id]);
});

t.test('filtered search by phone matches exactly; a + decoded as a space still works', async (t) => {
  const res = await get('phone=%2B4930111111');
  t.equal(res.statusCode, 200);
  t.ok(res.json().listings.some((l: { id: string }) => l.id === a.id));
  t.notOk(
    res.json().listings.some((l: { id: string }) => l.id === suppressed.id),
    'suppressed listing hidden',
  );
  const unencoded = (await get('phone=+4930111111')).json();
  t.same(
    unencoded.listings.map((l: { id: string }) => l.id),
    res.json().listings.map((l: { id: string }) => l.id),
  );
  t.equal((await get('phone=%2B493011111')).json().listings.filter((l: { id: string }) => l.id === a.id).length, 0, 'no partial match');
  const bad = await get('phone=0301111');
  t.equal(bad.statusCode, 400);
  t.match(bad.json().details, [/^phone: must be E\.164/]);
});

t.test('address search: case, diacritics, ß/ss, whole-field match and wildcards anywhere', async (t) => {
  const s = (streetValue: string, extra = '') => get(`street=${encodeURIComponent(streetValue)}&place=${place}&postCode=${zip}${extra}`).then((r) => r.json());
  const ids = (body: { listings: { id: string }[] }) => body.listings.map((l) => l.id);
  t.same(ids(await s(street)), [a.id, b.id], 'exact street, ordered by id');
  t.same(ids(await s(street.toUpperCase())), [a.id, b.id], 'case-insensitive');
  t.same(ids(await s(street.replace('ß', 'ss'))), [a.id, b.id], 'Strasse finds Straße');
  t.same(ids(await s(street.replace('ß', 'ss').replace('ai', 'äi'))), [a.id, b.id], 'diacritics ignored');
  t.same(ids(await s('Kaiser')), [], 'without * the whole field must match');
  t.same(ids(await s('Kaiser*')), [a.id, b.id], 'wildcard at the end');
  t.same(ids(await s(`*${street.slice(5)}`)), [a.id, b.id], 'wildcard at the start');
  t.same(ids(await s(`Kaiser*${street.slice(-4)}`)), [a.id, b.id], 'wildcard in the middle');
  t.same(ids(await s(street, '&number=12A')), [a.id], 'house number, case-insensitive');
  t.same(ids(await s(street, '&number=1*')), [a.id, b.id], 'house number wildcard');
  t.same(ids(await s('Rue de Rivoli')), [c.id], 'French order: number first');
  t.same(ids(await get(`street=*&place=${encodeURIComponent(town.toUpperCase())}&postCode=${zip}`).then((r) => r.json())).length, 5, 'place case-insensitive');
});

t.test('limit and offset edges', async (t) => {
  const q = `street=*&place=${place}&postCode=${zip}`;
  t.equal((await get(`${q}&limit=0`)).statusCode, 400);
  t.equal((await get(`${q}&limit=51`)).statusCode, 400);
  t.match((await get(`${q}&limit=51`)).json().details, ['limit: must be an integer from 1 to 50']);
  const fifty = (await get(`${q}&limit=50`)).json();
  t.same([fifty.numFound, fifty.numReturned], [5, 5]);
  const paged = (await get(`${q}&limit=2&offset=4`)).json();
  t.same([paged.numFound, paged.numReturned], [5, 1]);
  const beyond = (await get(`${q}&offset=10`)).json();
  t.same([beyond.numFound, beyond.numReturned, beyond.listings], [5, 0, []]);
  t.equal((await get(`${q}&offset=10001`)).statusCode, 400);
});

t.test('missing or mixed filter families answer 400', async (t) => {
  for (const query of ['', 'limit=5', `ids=${a.id}&phone=%2B4930111111`, `phone=%2B4930111111&street=x&place=y&postCode=1`, `street=x&place=y`, 'what=x', 'ids=abc', 'unknown=1']) {
    const res = await get(query);
    t.equal(res.statusCode, 400, query);
    t.equal(res.json().type, 'validation', query);
  }
  t.match((await get(`street=x&place=y`)).json().details, ['postCode: is required for an address search']);
  t.match((await get(`street=${'*a'.repeat(6)}&place=y&postCode=1`)).json().details, ['street: may hold at most 5 wildcards (*)']);
});

const solr = (query: string) => get(`solr=true&${query}`);

t.test('Solr mode: results shaped as the Solr result table', async (t) => {
  const res = await solr(`what=${bakery}&where=${place}`);
  t.equal(res.statusCode, 200);
  const hit = res.json().listings.find((l: { lid: number }) => String(l.lid) === a.id);
  t.same(Object.keys(hit).sort(), ['_version_', 'boost', 'categories', 'cc', 'id', 'lid', 'loc', 'name', 'partner', 'place', 'score', 'street', 'zip']);
  t.equal(hit.id, `de:${a.id}`);
  t.equal(hit.lid, Number(a.id));
  t.equal(hit.street, `${street} 12a`);
  t.same(hit.categories, ['Café']);
  t.match(hit.loc, /^-?\d+(\.\d+)?,-?\d+(\.\d+)?$/);
  t.equal(hit._version_, 1);
  t.equal(hit.boost, 1);
  t.type(hit.score, 'number');
  t.match(hit.partner, /^test-/);
});

t.test('Solr mode: what tolerates one and two typos and never skips a word', async (t) => {
  const ids = async (what: string) =>
    (await solr(`what=${encodeURIComponent(what)}&where=${place}`))
      .json()
      .listings.map((l: { lid: number }) => String(l.lid))
      .sort();
  const expected = [a.id, b.id, far.id].sort(); // inactive and suppressed listings are hidden
  t.same(await ids(bakery), expected, 'exact word');
  t.same(await ids(bakery.replace('ck', 'k')), expected, 'one edit (deletion)');
  t.same(await ids(bakery.replace('zucker', 'zukcer')), expected, 'two edits (transposition as two substitutions)');
  t.same(await ids(bakery.replace('backerei', 'bäckerei')), expected, 'umlaut folded');
  t.same(await ids(`${bakery} Meister`), [b.id], 'every word must match');
  t.same(await ids(`${bakery} Mesiter`), [b.id], 'a misspelt second word is matched fuzzily, not skipped');
  t.same(await ids('Café'), [a.id], 'category names match too');
});

t.test('Solr mode: quoted values match exact phrases', async (t) => {
  const ids = async (what: string) =>
    (await solr(`what=${encodeURIComponent(what)}&where=${place}`))
      .json()
      .listings.map((l: { lid: number }) => String(l.lid))
      .sort();
  t.same(await ids('"Grosse Meister"'), [], 'the words are not adjacent in that order in any name');
  t.same(await ids('Grosse Meister'), [b.id, c.id].sort(), 'unquoted, order does not matter');
  t.same(await ids(`"${bakery} Meister"`), [b.id], 'the phrase as it stands in the name');
  t.same(await ids(`"Meister Grosse"`), [c.id]);
  t.same((await solr(`where=${encodeURIComponent(`"${town}"`)}&category=B%C3%A4ckerei`)).json().numFound, 3, 'quoted where');
});

t.test('Solr mode: category is an exact, case-insensitive category name', async (t) => {
  const ids = async (category: string) =>
    (await solr(`category=${encodeURIComponent(category)}&where=${place}`))
      .json()
      .listings.map((l: { lid: number }) => String(l.lid))
      .sort();
  t.same(await ids('Café'), [a.id]);
  t.same(await ids('CAFÉ'), [a.id]);
  t.same(await ids('Caf'), [], 'not a prefix match');
  t.same(await ids('Bäckerei'), [b.id, c.id, far.id].sort(), 'inactive and suppressed listings are hidden');
});

t.test('Solr mode: 20 km radius, _dist_ in km within 1% of haversine, sorted by distance without what', async (t) => {
  const res = await solr(`lat=${centre.lat}&lon=${centre.lon}&where=${place}`);
  t.equal(res.statusCode, 200);
  const body = res.json();
  t.same(
    body.listings.map((l: { lid: number }) => String(l.lid)),
    [a.id, b.id, c.id],
    'nearest first; 19.9 km found, 20.1 km not, inactive/suppressed hidden',
  );
  for (const hit of body.listings) {
    const [lat, lon] = hit.loc.split(',').map(Number);
    const expected = haversineKm(centre, { lat, lon });
    t.ok(Math.abs(hit._dist_ - expected) / expected < 0.01, `_dist_ ${hit._dist_} ≈ ${expected}`);
    t.ok(Math.abs(hit._distboost_ - (1 + 0.5 ** (hit._dist_ / 5))) < 1e-9, '_distboost_ = 1 + 0.5^(d/5)');
  }
  t.ok(body.listings[2]._dist_ > 19.8 && body.listings[2]._dist_ < 20);
});

t.test('Solr mode ranking: a nearer equal match ranks first; a higher boost ranks first among equals', async (t) => {
  const twin = word('zwilling');
  const near = await create({ name: `${twin} Laden`, address: 'Zwillingsweg 1', ...north(8) });
  const farther = await create({ name: `${twin} Laden`, address: 'Zwillingsweg 2', ...north(12) });
  const q = `what=${twin}&where=${place}`;
  await settled(`solr=true&${q}`, 2);
  const withCentre = (await solr(`${q}&lat=${centre.lat}&lon=${centre.lon}`)).json().listings.map((l: { lid: number }) => String(l.lid));
  t.same(withCentre, [near.id, farther.id], 'nearer first');

  // Equal text scores need equal term statistics: each shard scores with its own, so on an index of
  // several shards (npm run test:cluster) two twins on different shards score apart a little.
  const oneShard = { skip: config.OPENSEARCH_SHARDS > 1 ? 'each shard scores with its own term statistics' : false };
  const equalWithout = (await solr(q)).json().listings;
  t.equal(equalWithout[0].score, equalWithout[1].score, 'equal text scores without a centre', oneShard);
  t.same(
    equalWithout.map((l: { lid: number }) => String(l.lid)),
    [near.id, farther.id],
    'ties break by id',
    oneShard,
  );
  await setStored(farther.id, { boost: 2 });
  const boosted = await eventually(
    async () => {
      const hits = (await solr(q)).json().listings;
      return hits[0] && String(hits[0].lid) === farther.id ? hits : undefined;
    },
    4000,
    'the boosted listing to rank first',
  );
  t.equal(boosted[0].boost, 2);
  t.ok(boosted[0].score > boosted[1].score);
});

t.test('Solr mode parameter errors', async (t) => {
  for (const [query, detail] of [
    ['', /^solr: give at least one of/],
    [`lat=${centre.lat}`, /^lat, lon: give both or neither$/],
    ['lat=91&lon=10', /^lat: must be a number between -90 and 90$/],
    ['what=x&phone=%2B4930111111', /^phone: not a parameter of the Solr mode$/],
    ['what=x&limit=51', /^limit: /],
  ] as const) {
    const res = await solr(query);
    t.equal(res.statusCode, 400, query);
    t.ok(
      res.json().details.some((d: string) => detail.test(d)),
      `${query}: ${JSON.stringify(res.json().details)}`,
    );
  }
});

t.test('a created listing becomes findable by every search', async (t) => {
  const fresh = word('frisch');
  const created = await create({ name: `${fresh} Kiosk`, address: 'Neuweg 5', phones: [{ type: 'mobile', number: '+4917612345678' }] });
  const found = async (query: string) => (await settled(query, 1, INDEXED_WITHIN_MS)).listings.map((l: { id: string; lid?: number }) => String(l.lid ?? l.id));
  t.same(await found(`ids=${created.id}`), [created.id], 'by id');
  t.same(await found(`street=Neuweg&place=${place}&postCode=${zip}`), [created.id], 'by address');
  t.same(await found(`solr=true&what=${fresh}`), [created.id], 'in the Solr mode');
});

// The second search round (docs/partners/search.md) against real OpenSearch, through the API: one
// search box, category names in any language, compound words, radius / bbox / sort (with cursor
// paging), and type-ahead. Listings are written through the API and indexed by the real indexer.
import t from 'tap';
import { documentId } from '../../indexer/listing-document.js';
import type { ListingInput } from '../../src/schemas/listing.js';
import { build, eventually, INDEXED_WITHIN_MS, listingInput, names, refreshEveryCopy, runId, startIndexer } from '../helper.js';

const { app, deps, partner } = await build(t);
await startIndexer(t, deps);
const owner = await partner();

// Words no other listing has: the run id spelt in letters, so typo matching sees only ours.
const word = (salt: string) => {
  const w = `${salt}${runId}`.replace(/\d/g, (d) => 'qwrtzpsdfg'[Number(d)]!).replace(/[^a-z]/g, 'x');
  return w[0]!.toUpperCase() + w.slice(1);
};
const KM_PER_DEGREE = (Math.PI * 6371.0087714) / 180;
const centre = { lat: 47.5 + Math.random(), lon: 10 + Math.random() };
const north = (km: number) => ({ latitude: centre.lat + km / KM_PER_DEGREE, longitude: centre.lon });
const zip = () => String(10000 + Math.floor(Math.random() * 80000));

const created: string[] = [];
async function create(overrides: Partial<ListingInput>) {
  const res = await app.inject({ method: 'POST', url: '/de/listings', headers: owner.auth, payload: listingInput({ zip: zip(), ...north(30), ...overrides }) });
  if (res.statusCode !== 201) throw new Error(`create failed: ${res.body}`);
  const { id } = res.json() as { id: string };
  created.push(id);
  return id;
}

// One search box: the same name in two towns, and a longer name in the first.
const [sur1, town1, town2] = [word('krumel'), word('ortwald'), word('ortheide')];
const inTown1 = await create({ name: `Bäckerei ${sur1}`, place: `${town1} am See`, zip: '80331' });
const inTown2 = await create({ name: `Bäckerei ${sur1}`, place: town2 });
const longerInTown1 = await create({ name: `Bäckerei ${sur1} & Söhne`, place: `${town1} am See`, zip: '80999' });
// Category names: a hairdresser whose name lacks the word, and a bakery of the same surname.
const sur2 = word('zwirbel');
const salon = await create({ name: `Salon ${sur2}`, categories: [{ id: 'shop/hairdresser' }] });
const bakery2 = await create({ name: `${sur2} Backstube`, categories: [{ id: 'shop/bakery' }] });
// Compound words.
const [sur3, sur4, sur5] = [word('gaukel'), word('wichtel'), word('strunz')];
const autowerkstatt = await create({ name: `Autowerkstatt ${sur3}`, categories: [{ id: 'shop/car_repair' }] });
const werkstatt = await create({ name: `Werkstatt ${sur3}` });
const autoSpaceWerkstatt = await create({ name: `Auto Werkstatt ${sur4}`, categories: [{ id: 'shop/car_repair' }] });
const fahrradladen = await create({ name: `Fahrradladen ${sur5}`, categories: [{ id: 'shop/bicycle' }] });
// The area and the order: the better text match is the farther one.
const sur6 = word('plusch');
const near = await create({ name: `${sur6} Kiosk`, ...north(1) });
const far = await create({ name: sur6, ...north(5) });
// Paging: twelve listings at twelve distances.
const sur7 = word('bommel');
const paging: string[] = [];
for (let i = 0; i < 12; i++) paging.push(await create({ name: `${sur7} Laden ${i}`, ...north(0.2 + i * 0.3) }));
// Type-ahead never shows inactive or suppressed listings.
const sur8 = word('quirl');
const inactive = await create({ name: `Salon ${sur8}`, active: false });
const suppressed = await create({ name: `Studio ${sur8}` });
await app.inject({ method: 'PUT', url: `/de/listings/${suppressed}/suppress`, headers: owner.auth });
const shown = await create({ name: `Atelier ${sur8}` });

const ids = created.map((id) => documentId('de', id));
await eventually(
  async () => {
    const { body } = await deps.opensearch.count({ index: names.listingsAlias('de'), body: { query: { bool: { filter: [{ terms: { id: ids } }, { term: { suppressed: true } }] } } } });
    const all = await deps.opensearch.count({ index: names.listingsAlias('de'), body: { query: { terms: { id: ids } } } });
    return all.body.count === ids.length && body.count === 1 ? true : undefined;
  },
  INDEXED_WITHIN_MS,
  `the ${ids.length} listings (one suppressed) to be searchable`,
);
await refreshEveryCopy(deps, 'de');

const get = async (path: string, params: Record<string, string | number>) => {
  const res = await app.inject({ url: `/de/${path}?${new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]))}`, headers: owner.auth });
  if (res.statusCode !== 200) throw new Error(`${path} ${JSON.stringify(params)}: ${res.statusCode} ${res.body}`);
  return res.json();
};
const solr = async (params: Record<string, string | number>) =>
  (await get('listings', { solr: 'true', ...params })) as { numFound: number; listings: { lid: number; _dist_?: number; score: number }[]; next?: string };
const found = async (params: Record<string, string | number>) => (await solr(params)).listings.map((l) => String(l.lid));

t.test('one search box: a word of what may be the place or the post code', async (t) => {
  t.same(await found({ what: `Bäckerei ${sur1} ${town1}` }), [inTown1, longerInTown1], 'the name in that town first, then a longer one there; not the other town');
  t.same(await found({ what: `Bäckerei ${sur1} ${town2}` }), [inTown2]);
  t.same(await found({ what: `${town1} Bäckerei ${sur1}` }), [inTown1, longerInTown1], 'the place first');
  t.same(await found({ what: `Bäckerei ${sur1} 80331` }), [inTown1], 'the post code');
  t.same(await found({ what: `Bäckerei ${sur1} ${town1.slice(0, 3)}x${town1.slice(4)}` }), [inTown1, longerInTown1], 'a typo in the place');
  t.same(await found({ what: `Bäckerei ${sur1} Nirgendwo` }), [], 'up to three words, every word must match something');
  t.same((await found({ what: `Bäckerei ${sur1} ${town1} Nirgendwo` })).slice(0, 2), [inTown1, longerInTown1], 'from four words on, one may be missing');
});

t.test('a category name in what finds the listings of that category, in any language, with a typo', async (t) => {
  for (const trade of ['Friseur', 'Hairdresser', 'Parrucchiere', 'Frisuer', 'FRISEUR']) {
    t.same(await found({ what: `${trade} ${sur2}` }), [salon], trade);
  }
  t.same(await found({ what: `Bäckerei ${sur2}` }), [bakery2], 'the surname of another category');
});

t.test('compound words: a word that ends a name word, split and joined; the whole word first', async (t) => {
  t.same(await found({ what: `Werkstatt ${sur3}` }), [werkstatt, autowerkstatt], 'the exact word ranks above the compound');
  t.same(await found({ what: `Auto Werkstatt ${sur3}` }), [autowerkstatt], 'two words that make one name word');
  t.same(await found({ what: `Autowerkstatt ${sur4}` }), [autoSpaceWerkstatt], 'one word that makes two name words');
  t.same(await found({ what: `Laden ${sur5}` }), [fahrradladen]);
  t.same(await found({ what: `Fahrrad Laden ${sur5}` }), [fahrradladen]);
  t.same(await found({ what: `Den ${sur5}` }), [], 'an ending of fewer than 4 letters is no compound part');
});

t.test('radius, bbox and sort', async (t) => {
  const at = { lat: centre.lat, lon: centre.lon };
  t.same(await found({ what: sur6, ...at }), [far, near], 'relevance: the whole name first, though farther');
  const byDistance = await solr({ what: sur6, ...at, sort: 'distance' });
  t.same(
    byDistance.listings.map((l) => String(l.lid)),
    [near, far],
    'sort=distance',
  );
  t.ok(
    byDistance.listings.every((l) => typeof l.score === 'number' && l._dist_! > 0),
    'scores and distances reported',
  );
  t.same(await found({ what: sur6, ...at, radius: 3 }), [near], 'radius 3 km');
  t.same(await found({ what: sur6, ...at, radius: 0.1 }), [], 'radius 0.1 km');
  const box = (minKm: number, maxKm: number) => [centre.lon - 0.01, centre.lat + minKm / KM_PER_DEGREE, centre.lon + 0.01, centre.lat + maxKm / KM_PER_DEGREE].join(',');
  const inBox = await solr({ what: sur6, bbox: box(4, 6) });
  t.same(
    inBox.listings.map((l) => String(l.lid)),
    [far],
    'only the box',
  );
  t.notOk('_dist_' in inBox.listings[0]!, 'no distance without a centre');
  t.same(
    await found({ bbox: box(0.35, 5.5) }),
    [near, far, ...paging.slice(1)].sort((a, b) => Number(a) - Number(b)),
    'a box alone: every listing inside, by id',
  );
});

t.test('cursor paging keeps working with sort=distance and with a box', async (t) => {
  const pageThrough = async (params: Record<string, string | number>) => {
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await solr({ ...params, limit: 5, ...(cursor ? { cursor } : {}) });
      seen.push(...page.listings.map((l) => String(l.lid)));
      cursor = page.next;
      if (++pages > 10) throw new Error('next never ends');
    } while (cursor);
    return { seen, pages };
  };
  const byDistance = await pageThrough({ what: sur7, lat: centre.lat, lon: centre.lon, sort: 'distance' });
  t.same(byDistance, { seen: paging, pages: 3 }, 'nearest first over three pages');
  const box = [centre.lon - 0.01, centre.lat, centre.lon + 0.01, centre.lat + 4 / KM_PER_DEGREE].join(',');
  const boxed = await pageThrough({ what: sur7, bbox: box });
  t.same([...boxed.seen].sort(), [...paging].sort(), 'every listing of the box once');
});

t.test('suggest: categories whose name matches first, then listings by the prefix of a name word', async (t) => {
  const friseu = await get('suggest', { q: 'Friseu' });
  t.match(friseu.suggestions[0], { type: 'category', id: 'shop/hairdresser', name: 'Friseur' });
  const prefix = sur2.slice(0, Math.ceil(sur2.length * 0.6));
  t.same((await get('suggest', { q: prefix })).suggestions, [
    { type: 'listing', id: salon, name: `Salon ${sur2}`, place: 'Berlin' },
    { type: 'listing', id: bakery2, name: `${sur2} Backstube`, place: 'Berlin' },
  ]);
  t.same(
    (await get('suggest', { q: `Salom ${prefix}` })).suggestions.map((s: { id: string }) => s.id),
    [salon],
    'a typo in the word before',
  );
  t.same(
    (await get('suggest', { q: `Friseur ${prefix}` })).suggestions.map((s: { id: string }) => s.id),
    [salon],
    'a category name before',
  );
  const rest = await get('suggest', { q: 'Rest' });
  t.equal(rest.suggestions.length, 5);
  t.ok(
    rest.suggestions.every((s: { type: string }) => s.type === 'category'),
    'categories fill the limit first',
  );
  t.equal(rest.suggestions[0].name, 'Restaurant', 'the name that begins with it, shortest first');
});

t.test('suggest: nearer first with lat/lon, never inactive or suppressed listings, at most limit', async (t) => {
  const nearFirst = await get('suggest', { q: sur6.slice(0, 5), lat: centre.lat, lon: centre.lon });
  t.same(
    nearFirst.suggestions.map((s: { id: string }) => s.id),
    [near, far],
  );
  t.ok(Math.abs(nearFirst.suggestions[0]._dist_ - 1) < 0.01 && Math.abs(nearFirst.suggestions[1]._dist_ - 5) < 0.01, '_dist_ in km');
  t.same(
    (await get('suggest', { q: sur8.slice(0, 6) })).suggestions.map((s: { id: string }) => s.id),
    [shown],
    `not ${inactive} nor ${suppressed}`,
  );
  const three = await get('suggest', { q: sur7.slice(0, 4), limit: 3, lat: centre.lat, lon: centre.lon });
  t.same(
    three.suggestions.map((s: { id: string }) => s.id),
    paging.slice(0, 3),
  );
  t.same((await get('suggest', { q: `${sur7} Laden 1` })).suggestions.map((s: { id: string }) => s.id).sort(), [paging[1], paging[10], paging[11]].sort(), 'a digit is a prefix too');
});

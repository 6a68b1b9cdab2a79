// A small relevance set against real OpenSearch: listings from the seed generator, written
// through the listing service and indexed by the real indexer, then the labelled queries of
// bench/relevance-queries.ts through the API. The targets are the ones bench/RESULTS.md reports
// at 1 000 000 listings (docs/search.md).
import t from 'tap';
import { buildQuerySet, score, type CorpusListing, type LabelledQuery } from '../../bench/relevance-queries.js';
import { documentId } from '../../indexer/listing-document.js';
import { createListingGenerator } from '../../src/seed/listing-generator.js';
import { searchWords } from '../../src/search/words.js';
import { build, eventually, INDEXED_WITHIN_MS, listingInput, names, refreshEveryCopy, startIndexer } from '../helper.js';

const { app, deps, partner } = await build(t);
await startIndexer(t, deps);
const owner = await partner('admin');
const caller = { partnerId: owner.id, name: 'relevance', role: 'admin' as const };

const categories = (await deps.database.pool.query<{ id: string; name: string }>("select id, name from categories where country = 'de'")).rows;
const next = createListingGenerator({ country: 'de', seed: 20261123, categories });
const corpus: CorpusListing[] = [];
for (let i = 0; i < 300; i++) {
  const g = next();
  if (!g.active) continue; // the Solr mode never shows inactive listings
  const created = await deps.listings.create(
    caller,
    'de',
    listingInput({
      name: g.name,
      address: g.address,
      zip: g.zip,
      place: g.place,
      latitude: g.latitude,
      longitude: g.longitude,
      keywords: g.keywords,
      categories: [{ id: g.categoryId }],
      phones: [{ type: 'landline', number: g.phone }],
      hours: {},
    }),
  );
  corpus.push({ id: Number(created.id), name: g.name, place: g.place, zip: g.zip, lat: g.latitude, lon: g.longitude, categories: created.categories.map((c) => c.name) });
}

const search = async (params: Record<string, string | number>) => {
  const query = new URLSearchParams({ solr: 'true', ...Object.fromEntries(Object.entries(params).map(([k, v]) => [k, String(v)])) });
  const res = await app.inject({ url: `/de/listings?${query}`, headers: owner.auth });
  if (res.statusCode !== 200) throw new Error(`${query}: ${res.statusCode} ${res.body}`);
  const body = res.json() as { numFound: number; listings: { lid: number }[] };
  return { ids: body.listings.map((l) => l.lid), numFound: body.numFound };
};
// Every listing, not just the last: batches overlap and retries back off, so an earlier one can
// become searchable after it.
const corpusIds = corpus.map((l) => documentId('de', l.id));
await eventually(
  async () => {
    const { body } = await deps.opensearch.count({ index: names.listingsAlias('de'), body: { query: { terms: { id: corpusIds } } } });
    return body.count === corpus.length ? true : undefined;
  },
  INDEXED_WITHIN_MS,
  `the ${corpus.length} listings to be searchable`,
);
await refreshEveryCopy(deps, 'de'); // the queries below may go to the copy that did not count them

const categoryWords = new Set(categories.flatMap((c) => searchWords(c.name)));
const queries = buildQuerySet(corpus, { seed: 7, perClass: 24, categoryWords });
const results = new Map<LabelledQuery, { ids: number[]; numFound: number }>();
for (const q of queries) results.set(q, await search(q.params));

const ofClass = (cls: LabelledQuery['class']) => {
  const qs = queries.filter((q) => q.class === cls);
  return score(
    qs,
    qs.map((q) => results.get(q)!.ids),
  );
};
const misses = (cls: string) =>
  queries
    .filter(
      (q) =>
        q.class === cls &&
        !results
          .get(q)!
          .ids.slice(0, 10)
          .some((id) => q.relevant.includes(id)),
    )
    .map((q) => `${JSON.stringify(q.params)} (${q.note})`);

t.test('an exact name, with &, -, /, ., digits, legal forms and titles, comes first', async (t) => {
  t.ok(ofClass('exact name').at1 >= 0.99, `recall@1 ${ofClass('exact name').at1}; misses: ${misses('exact name').join('; ')}`);
});

t.test('one typo anywhere in a word, the first letter included, finds the listing in the top 10', async (t) => {
  t.ok(ofClass('one edit').at10 >= 0.98, `recall@10 ${ofClass('one edit').at10}; misses: ${misses('one edit').join('; ')}`);
  const firstLetter = queries.filter((q) => q.class === 'one edit' && q.group === 'first letter');
  t.ok(
    firstLetter.length > 0 &&
      firstLetter.every((q) =>
        results
          .get(q)!
          .ids.slice(0, 10)
          .some((id) => q.relevant.includes(id)),
      ),
    'every first-letter typo',
  );
  t.equal(queries.filter((q) => q.class === 'one edit' && results.get(q)!.numFound === 0).length, 0, 'a real name with one typo never finds nothing');
});

t.test('two typos in a word of 8+ letters', async (t) => {
  t.ok(ofClass('two edits').at10 >= 0.9, `recall@10 ${ofClass('two edits').at10}; misses: ${misses('two edits').join('; ')}`);
});

t.test('transliteration both ways and all capitals', async (t) => {
  t.ok(ofClass('transliteration').at10 >= 0.98, `recall@10 ${ofClass('transliteration').at10}; misses: ${misses('transliteration').join('; ')}`);
  t.ok(ofClass('all capitals').at10 >= 0.98, `recall@10 ${ofClass('all capitals').at10}`);
});

t.test('a rare surname alone, and what + where with a typo in each', async (t) => {
  t.ok(ofClass('surname alone').at10 >= 0.98, `recall@10 ${ofClass('surname alone').at10}; misses: ${misses('surname alone').join('; ')}`);
  t.ok(ofClass('what + where, a typo in each').at10 >= 0.95, `recall@10; misses: ${misses('what + where, a typo in each').join('; ')}`);
});

t.test('category + geo: the nearest listing of the category first', async (t) => {
  t.ok(ofClass('category + geo').at1 >= 0.98, `recall@1 ${ofClass('category + geo').at1}`);
});

t.test('two listings of the same name 2 km and 12 km away: the nearer first', async (t) => {
  const origin = { lat: 48.2 + Math.random(), lon: 10.5 + Math.random() };
  const at = (km: number, angle: number) => ({
    latitude: origin.lat + (km / 111.2) * Math.cos(angle),
    longitude: origin.lon + (km / (111.2 * Math.cos((origin.lat * Math.PI) / 180))) * Math.sin(angle),
  });
  const name = `${corpus[0]!.name} Zwilling`;
  // The far one is created first, so that a tie broken by id would put it first.
  const far = await deps.listings.create(caller, 'de', listingInput({ name, ...at(12, 1) }));
  const near = await deps.listings.create(caller, 'de', listingInput({ name, ...at(2, 4) }));
  const ids = await eventually(
    async () => {
      const { ids: found } = await search({ what: name, lat: origin.lat, lon: origin.lon });
      return found.includes(Number(near.id)) && found.includes(Number(far.id)) ? found : undefined;
    },
    5000,
    'both twins',
  );
  t.ok(ids.indexOf(Number(near.id)) < ids.indexOf(Number(far.id)));
});

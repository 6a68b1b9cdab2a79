// Cursor paging (docs/contract.md §16) against real OpenSearch: more matches than offset can reach
// (offset stops at 10 000, the index's result window at 10 050), paged with `next` until it is
// absent, in the filtered search and in the Solr mode, scored and sorted by distance.
//
// The documents are built by the real document mapper and bulk-indexed straight into the `at`
// index (which no other test searches), with ids far above any the database hands out: 10 000
// listings through the API or a reindex would test the write path, not paging. They are deleted
// when the test ends.
import t, { type Test } from 'tap';
import { buildListingDocument, documentId } from '../../indexer/listing-document.js';
import type { Listing } from '../../src/schemas/listing.js';
import { build, listingInput, names, runId } from '../helper.js';

const COUNT = 10_120;
const LIMIT = 50;
const country = 'at';
const index = names.listingsAlias(country);

const { app, deps, partner } = await build(t);
const owner = await partner();

// A place word no other listing has: the run id spelt in letters, so typo matching sees only ours.
const word = `${runId}`.replace(/\d/g, (d) => 'qwrtzpsdfg'[Number(d)]!).replace(/[^a-z]/g, 'x');
const place = `Cursorstadt ${word}`;
// Somewhere in the South Atlantic, new each run: only these documents lie within 20 km of it.
const centre = { lat: -35 - Math.random() * 5, lon: -20 - Math.random() * 5 };
const firstId = 8_000_000_000_000_000 + Math.floor(Math.random() * 1_000_000) * 100_000;
const ids = Array.from({ length: COUNT }, (_, i) => firstId + i);

// One real listing as the template of every document (the mapper needs a whole Listing).
const created = await app.inject({ method: 'POST', url: '/de/listings', headers: owner.auth, payload: listingInput() });
if (created.statusCode !== 201) throw new Error(`create failed: ${created.body}`);
const template = created.json() as Listing;

// Deleted by id, in the same chunks they were written in: a delete-by-query of 10 000 documents
// can outlast the client's request timeout on a busy machine, and a teardown that throws would
// leave the app open.
t.teardown(async () => {
  for (let start = 0; start < COUNT; start += 2000) {
    const body = ids.slice(start, start + 2000).map((id) => ({ delete: { _index: index, _id: documentId(country, id) } }));
    await deps.opensearch.bulk({ body, refresh: start + 2000 >= COUNT ? 'true' : 'false', filter_path: 'errors' }, { requestTimeout: 120_000 });
  }
});

for (let start = 0; start < COUNT; start += 2000) {
  const body = ids.slice(start, start + 2000).flatMap((id, i) => {
    const n = start + i;
    const listing: Listing = {
      ...template,
      id: String(id),
      country_code: country,
      active: true,
      name: `Cursor ${word} ${n}`,
      address: `Cursorweg ${(n % 400) + 1}`,
      zip: '1010',
      place,
      // 50 distinct distances: ties that only the listing id breaks.
      latitude: centre.lat + (n % 50) * 0.0005,
      longitude: centre.lon,
    };
    // Three boosts: scores that differ, in runs of equal ones.
    const doc = buildListingDocument({
      listing,
      partnerName: 'cursor-paging',
      suppressed: false,
      boost: 1 + (n % 3) * 0.5,
      version: 1,
      updatedAt: new Date(),
      createdAt: new Date(),
      claimantName: null,
      hasOffer: false,
    });
    return [{ index: { _index: index, _id: doc.id } }, doc];
  });
  const res = await deps.opensearch.bulk({ body, filter_path: 'errors,items.*.error' });
  if (res.body.errors) throw new Error(`bulk indexing failed: ${JSON.stringify(res.body.items?.find((item) => Object.values(item)[0]?.error))}`);
}
await deps.opensearch.indices.refresh({ index });

interface Page {
  numFound: number;
  numReturned: number;
  listings: { id: string; lid?: number; score?: number; _dist_?: number }[];
  next?: string;
}

const get = (query: Record<string, string | number>) => app.inject({ url: `/${country}/listings?${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]))}`, headers: owner.auth });

/** Pages through `query` with `next` until it is absent; every page must answer 200. */
async function pageThrough(query: Record<string, string | number>) {
  const hits: Page['listings'] = [];
  const pages: Page[] = [];
  let cursor: string | undefined;
  do {
    const res = await get({ ...query, limit: LIMIT, ...(cursor ? { cursor } : {}) });
    if (res.statusCode !== 200) throw new Error(`page ${pages.length + 1}: ${res.statusCode} ${res.body}`);
    const page = res.json() as Page;
    pages.push(page);
    hits.push(...page.listings);
    cursor = page.next;
    if (pages.length > COUNT / LIMIT + 10) throw new Error('next never ends');
  } while (cursor);
  return { hits, pages };
}

const listingId = (hit: Page['listings'][number]) => hit.lid ?? Number(hit.id);

function everyMatchOnce(t: Test, { hits, pages }: Awaited<ReturnType<typeof pageThrough>>) {
  t.equal(pages[0]!.numFound, COUNT, 'numFound counts every match');
  t.ok(
    pages.every((page) => page.numFound === COUNT),
    'on every page',
  );
  const seen = hits.map(listingId);
  t.equal(seen.length, COUNT, 'as many results as numFound');
  t.equal(new Set(seen).size, COUNT, 'none twice');
  t.same(
    [...seen].sort((a, b) => a - b),
    ids,
    'every match',
  );
  t.equal(pages.length, Math.ceil(COUNT / LIMIT), 'next is absent on the last page, and only there');
  t.ok(
    pages.slice(0, -1).every((page) => page.next && page.numReturned === LIMIT),
    'every earlier page is full and has next',
  );
}

t.test('the filtered search pages past 10 000 with next, every match exactly once, in id order', async (t) => {
  const result = await pageThrough({ street: 'Cursorweg*', place, postCode: '1010' });
  everyMatchOnce(t, result);
  const seen = result.hits.map(listingId);
  t.same(seen, ids, 'in id order');
});

t.test('the Solr mode pages a scored search with next: every match once, scores never rise', async (t) => {
  const result = await pageThrough({ solr: 'true', where: place });
  everyMatchOnce(t, result);
  const scores = result.hits.map((hit) => hit.score!);
  t.ok(
    scores.every((score, i) => i === 0 || score <= scores[i - 1]!),
    'ordered by score across pages',
  );
  t.ok(new Set(scores).size >= 3, 'the boosts make scores differ');
});

t.test('the Solr mode pages a search sorted by distance with next: every match once, distances never fall', async (t) => {
  const result = await pageThrough({ solr: 'true', lat: centre.lat, lon: centre.lon });
  everyMatchOnce(t, result);
  const distances = result.hits.map((hit) => hit._dist_!);
  t.ok(
    distances.every((km, i) => i === 0 || km >= distances[i - 1]!),
    'ordered by distance across pages',
  );
});

t.test('limit may change between pages; an ids search pages with next too', async (t) => {
  const first = (await get({ solr: 'true', where: place, limit: 50 })).json() as Page;
  const res = await get({ solr: 'true', where: place, limit: 7, cursor: first.next! });
  t.equal(res.statusCode, 200);
  t.equal((res.json() as Page).numReturned, 7);

  const given = ids.slice(0, 3).join(',');
  const one = await get({ ids: given, limit: 2 });
  t.equal(one.statusCode, 200);
  const page1 = one.json() as Page;
  t.same(page1.listings.map(listingId), ids.slice(0, 2));
  t.type(page1.next, 'string', 'next while one remains');
  const two = await get({ ids: given, limit: 2, cursor: page1.next! });
  t.equal(two.statusCode, 200);
  const page2 = two.json() as Page;
  t.same(page2.listings.map(listingId), ids.slice(2, 3));
  t.equal(page2.next, undefined, 'no next on the last page');
});

t.test('a cursor with offset, with another query, or that is no cursor, is 400', async (t) => {
  const first = (await get({ street: 'Cursorweg*', place, postCode: '1010' })).json() as Page;
  t.type(first.next, 'string', 'the first page has next');
  const cursor = first.next!;

  const withOffset = await get({ street: 'Cursorweg*', place, postCode: '1010', cursor, offset: 50 });
  t.equal(withOffset.statusCode, 400);
  t.match(withOffset.json(), { type: 'validation', details: ['cursor: cannot be combined with offset'] });

  const otherQueries: Record<string, string>[] = [{ street: 'Cursorweg*', place, postCode: '1*' }, { phone: '+493012345678' }, { solr: 'true', where: place }];
  for (const query of otherQueries) {
    const res = await get({ ...query, cursor });
    t.equal(res.statusCode, 400, JSON.stringify(query));
    t.match(res.json(), { type: 'validation', details: ['cursor: belongs to another query; repeat the query that returned it, changing only cursor and limit'] });
  }
  const otherCountry = await app.inject({ url: `/de/listings?${new URLSearchParams({ street: 'Cursorweg*', place, postCode: '1010', cursor })}`, headers: owner.auth });
  t.equal(otherCountry.statusCode, 400, 'another country');

  for (const garbage of ['garbage', 'eyJ2IjoxfQ', `${cursor.slice(0, -4)}AAAA`]) {
    const res = await get({ street: 'Cursorweg*', place, postCode: '1010', cursor: garbage });
    t.equal(res.statusCode, 400, garbage);
    t.equal(res.json().type, 'validation');
  }
});

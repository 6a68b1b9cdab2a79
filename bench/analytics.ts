// What the analysts' fields and door cost (docs/analytics.md; docs/contract.md §22):
//  - index bytes per listing and rebuild time, with and without the analyst fields: the same
//    listings read from PostgreSQL, built into documents and bulk-loaded into a fresh index (as the
//    reindex does), once with the analyst fields stripped;
//  - a terms aggregation over `tiles` at zoom 10 through /analytics against the same body sent to
//    OpenSearch directly (p50 of sequential requests: what the endpoint adds), and a small `size: 0`
//    aggregation the same way;
//  - partners' Solr-mode p99 with and without an analyst running a heavy aggregation in a loop.
//   npm run bench:analytics -- --listings 1000000     (the size)
//   npm run bench:analytics -- --listings 5000 --seconds 3     (a smoke run)
import { bulkBody } from '../indexer/bulk-write.js';
import { SIZE_MEASURE_SETTINGS } from './second-round-run.js';
import { listingBulkAction } from '../indexer/listing-sync.js';
import { listingIdPages } from '../indexer/reindex.js';
import { createDatabase } from '../src/db/client.js';
import { loadListingsForIndex } from '../src/listings/listing-reads-dal.js';
import { listingsIndexBody } from '../src/opensearch/index-setup.js';
import { indexLayout, loadConfig, publicUrls } from '../src/platform/config.js';
import { readDictionary } from '../scripts/analytics/analyst-questions.js';
import { writeResults } from './results-file.js';
import { apiUrl, benchRequests, COUNTRY as country, load, machineDescription, OPENSEARCH, percentile, post, sleep, STATUS_TERMS, startBenchService, type Mode } from './service.js';

const arg = (name: string, fallback: number) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
};
const listings = arg('--listings', 1_000_000);
const seconds = arg('--seconds', 20);
const mode: Mode = { name: 'analytics', listings, seconds, db: `listings_bench_analytics_${listings}`, prefix: `benchan${listings}-` };

const service = await startBenchService(mode);
const config = loadConfig(service.env);
const urls = publicUrls(config);

// ---- Index bytes and rebuild time, with and without the analyst fields ----------------------
/** The fields the analysts' dictionary adds beyond what the index held before (docs/analytics.md). */
const ANALYST_FIELDS = [
  'created_at',
  'status',
  'claimed',
  'claimed_by',
  'created_by',
  'zip',
  'street',
  'region',
  'category_groups',
  'image_count',
  'has_offer',
  'has_hours',
  'has_website',
  'has_phone',
  'has_email',
  'completeness',
  'tiles',
];
const known = new Set(readDictionary().indices.listings!.fields.map((f) => f.field));
for (const field of ANALYST_FIELDS) if (!known.has(field)) throw new Error(`${field} is not in analytics/dictionary.json`);

const json = async (path: string, init?: RequestInit) => (await fetch(`${OPENSEARCH}${path}`, init)).json() as Promise<Record<string, unknown>>;

/** Builds a fresh index of every live listing of the country, as the reindex does; returns its seconds and bytes per listing. */
async function rebuild(withAnalystFields: boolean) {
  const index = `${mode.prefix}analytics-${withAnalystFields ? 'with' : 'without'}-${Date.now()}`;
  const mappings = structuredClone(listingsIndexBody(indexLayout(config), SIZE_MEASURE_SETTINGS));
  if (!withAnalystFields) for (const field of ANALYST_FIELDS) delete (mappings.mappings!.properties as Record<string, unknown>)[field];
  const database = createDatabase(config.DATABASE_URL, 4);
  const started = Date.now();
  const created = await json(`/${index}`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(mappings) });
  if (created.error) throw new Error(`creating ${index}: ${JSON.stringify(created.error)}`);
  await json(`/_cluster/health/${index}?wait_for_status=yellow&timeout=30s`);
  let documents = 0;
  for await (const ids of listingIdPages(database.db, country, 1000)) {
    const actions = [...(await loadListingsForIndex(database.db, ids)).values()].map((record) => listingBulkAction(record, index, urls));
    if (!withAnalystFields) for (const action of actions) if (action.op === 'index') for (const field of ANALYST_FIELDS) delete (action.document as Record<string, unknown>)[field];
    const answer = await json('/_bulk', { method: 'POST', headers: { 'content-type': 'application/x-ndjson' }, body: bulkBody(actions) });
    if (answer.errors) throw new Error(`bulk refused documents of ${index}`);
    documents += actions.length;
  }
  // Refreshed first: with refresh_interval -1 the last documents are still in the indexing buffer,
  // and a merge of the segments without them leaves a second one. Refreshed after, so that the
  // merged-away segments, which the old reader holds, leave the disk before the size is read.
  await json(`/${index}/_refresh`, { method: 'POST' });
  await json(`/${index}/_forcemerge?max_num_segments=1`, { method: 'POST' });
  await json(`/${index}/_refresh`, { method: 'POST' });
  const secondsTaken = (Date.now() - started) / 1000;
  const stats = (await json(`/${index}/_stats/store,docs`)) as { _all: { primaries: { store: { size_in_bytes: number }; docs: { count: number } } } };
  if (stats._all.primaries.docs.count !== documents) throw new Error(`${index} holds ${stats._all.primaries.docs.count} of ${documents} documents`);
  await json(`/${index}`, { method: 'DELETE' });
  await database.close();
  return { seconds: secondsTaken, bytesPerListing: stats._all.primaries.store.size_in_bytes / documents, documents };
}
// A first read of every page, not timed: both rebuilds then meet the same warm caches and code.
const warm = createDatabase(config.DATABASE_URL, 4);
for await (const ids of listingIdPages(warm.db, country, 1000)) await loadListingsForIndex(warm.db, ids);
await warm.close();
const without = await rebuild(false);
const withFields = await rebuild(true);

// ---- The door's cost: /analytics against OpenSearch directly ------------------------------
const TILES_AT_10 = { size: 0, aggs: { by_tile: { terms: { field: 'tiles', include: '10/.*', size: 1000 } } } };
const runs = Math.max(50, Math.min(500, Math.round(seconds / 2) * 50));

/** p50 and p99 in ms of a list of times. */
const quantiles = (times: number[]) => ({ p50: percentile(times, 50), p99: percentile(times, 99) });

/**
 * `runs` sequential POSTs of `body` through the door and as many to OpenSearch directly, in rounds
 * of fifty of each, after 100 of each not counted (the API's code is still cold when the first body
 * comes: it has served nothing but start-up), so that a slower stretch of the machine then falls on
 * both alike, instead of on whichever ran at the time (as bench/request-path.ts does).
 */
async function doorAndDirect(body: object) {
  // The body as the door sends it: with the timeout it always applies.
  const text = JSON.stringify({ ...body, timeout: `${config.ANALYTICS_TIMEOUT_MS}ms` });
  const ways = { door: { url: apiUrl(`/analytics/listings-${country}/_search`), headers: service.auth }, direct: { url: `${OPENSEARCH}/${service.alias}/_search`, headers: {} } };
  const times = { door: [] as number[], direct: [] as number[] };
  const time = async (way: keyof typeof ways, count: number, keep: boolean) => {
    for (let i = 0; i < count; i++) {
      const started = performance.now();
      const { status } = await post(ways[way].url, text, { headers: ways[way].headers });
      if (status !== 200) throw new Error(`${ways[way].url} answered ${status}`);
      if (keep) times[way].push(performance.now() - started);
    }
  };
  await time('door', 100, false);
  await time('direct', 100, false);
  // Rounds of fifty: in shorter ones each way's first requests after the other's meet its process
  // idle, and they measured the machine's scheduling more than the door (+2 to +3 ms in rounds of
  // ten, +0.7 to +1.7 in runs of thousands).
  for (let round = 0; round < runs / 50; round++) {
    await time('door', 50, true);
    await time('direct', 50, true);
  }
  return { door: quantiles(times.door), direct: quantiles(times.direct) };
}
const tiles = await doorAndDirect(TILES_AT_10);
const status = await doorAndDirect(STATUS_TERMS);

// ---- Partners' Solr searches while an analyst runs a heavy aggregation in a loop -----------
const { searches } = await benchRequests(service.db);
const solr = searches.find((s) => s.name === 'solr: what + where')!;
const partners = () => load({ url: apiUrl(`/${country}/listings?${solr.path}`), headers: service.auth, seconds });
const alone = await partners();
const HEAVY = { size: 0, aggs: { by_tile: { terms: { field: 'tiles', include: '14/.*', size: 10_000 }, aggs: { by_category: { terms: { field: 'categories', size: 10 } } } } } };
let analysing = true;
let heavyRuns = 0;
const analyst = (async () => {
  while (analysing) {
    await post(apiUrl(`/analytics/listings-${country}/_search`), JSON.stringify(HEAVY), { headers: service.auth });
    heavyRuns++;
  }
})();
await sleep(500);
const beside = await partners();
analysing = false;
await analyst;
await service.stop();

const percent = (after: number, before: number) => `${(((after - before) / before) * 100).toFixed(0)} %`;
const ms = (v: number) => v.toFixed(1);
const section = `${await machineDescription()}
\`npm run bench:analytics -- --listings ${listings} --seconds ${seconds}\`: listings of \`${country}\` seeded by \`npm run cli -- seed\`.

| Measured | without analyst fields | with them | change | target |
|---|---|---|---|---|
| index bytes per listing (one segment) | ${without.bytesPerListing.toFixed(0)} | ${withFields.bytesPerListing.toFixed(0)} | ${percent(withFields.bytesPerListing, without.bytesPerListing)} | ≤ 15 % |
| rebuild from PostgreSQL (read, build, bulk, merge), s | ${without.seconds.toFixed(1)} | ${withFields.seconds.toFixed(1)} | ${percent(withFields.seconds, without.seconds)} | ≤ 15 % |

| Request (sequential, ${runs} runs of each way, alternating in fifties) | through /analytics p50 / p99 ms | OpenSearch directly p50 / p99 ms | added p50 | target |
|---|---|---|---|---|
| terms over \`tiles\` at zoom 10 | ${ms(tiles.door.p50)} / ${ms(tiles.door.p99)} | ${ms(tiles.direct.p50)} / ${ms(tiles.direct.p99)} | ${ms(tiles.door.p50 - tiles.direct.p50)} | ≤ 500 ms p50 at 1 000 000 |
| \`size: 0\` terms over \`status\` | ${ms(status.door.p50)} / ${ms(status.door.p99)} | ${ms(status.direct.p50)} / ${ms(status.direct.p99)} | ${ms(status.door.p50 - status.direct.p50)} | ≤ 2 ms added |

| Partners' Solr search (\`${solr.name}\`, ${seconds} s) | p50 ms | p99 ms | req/s |
|---|---|---|---|
| alone | ${alone.p50} | ${alone.p99} | ${alone.rps.toFixed(0)} |
| while one analyst loops a terms over zoom-14 tiles × categories (${heavyRuns} runs) | ${beside.p50} | ${beside.p99} | ${beside.rps.toFixed(0)} |
| p99 change (target ≤ 30 %) | | ${percent(beside.p99, alone.p99)} | |

What isolates them here: every analyst search carries a timeout of at most \`ANALYTICS_TIMEOUT_MS\` and is
cancelled a second after it; an analyst runs one request at a time per connection and the per-key rate
limit bounds how many; the aggregation's buckets are capped by \`search.max_buckets\`. Both share the node's
search thread pool and its cores: on one node nothing else separates them. Where the p99 rises too much,
a replica on a node of its own that only analysts' requests reach (\`preference\` set to that node, or a
second cluster fed by the same indexer) is the next step.
`;
writeResults('bench:analytics', `analytics, ${listings.toLocaleString('en')} listings`, section);
console.log(section);
process.exit(0);

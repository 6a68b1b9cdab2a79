// Benchmarks of the API against raw OpenSearch, side by side in one run (issue 7).
//   npm run bench -- --quick     50 000 listings, seconds per scenario
//   npm run bench                1 000 000 listings
// Starts its own API and indexer processes on a database and index prefix of their own, seeds
// the data set if it is smaller than wanted, and writes bench/RESULTS.md.
import { readFileSync } from 'node:fs';
import { Client } from '@opensearch-project/opensearch';
import { buildFilteredQuery } from '../src/search/query/filtered-query.js';
import { buildSolrQuery } from '../src/search/query/solr-query.js';
import { parseListingSearch, type ListingSearch } from '../src/search/search-params.js';
import { fold } from '../src/search/fold.js';
import {
  apiUrl, benchRequests, CONNECTIONS, COUNTRY as country, FULL, load as loadFor, machineDescription, memoryMb, OPENSEARCH, QUICK,
  sleep, startBenchService, writeResultsSection, type Measured,
} from './service.js';

const quick = process.argv.includes('--quick');
const mode = quick ? QUICK : FULL;
const load = (opts: Omit<Parameters<typeof loadFor>[0], 'seconds'>) => loadFor({ ...opts, seconds: mode.seconds });

const service = await startBenchService(mode);
const { auth, alias, cli, seedSeconds, api, indexer } = service;
const { listingId, searches, createBody } = await benchRequests(service.db);

const rows: string[] = [];
const row = (name: string, a: Measured, raw?: Measured) => rows.push(`| ${name} | ${a.rps.toFixed(0)} | ${a.p50} | ${a.p99} | ${raw ? raw.rps.toFixed(0) : '–'} | ${raw ? raw.p50 : '–'} | ${raw ? raw.p99 : '–'} | ${raw ? (a.rps / raw.rps).toFixed(2) : '–'} | ${raw ? `${(a.p99 - raw.p99).toFixed(0)} ms` : '–'} | ${a.errors + (raw?.errors ?? 0)} |`);

const rawBody = (params: ListingSearch) => JSON.stringify(params.kind === 'solr' ? buildSolrQuery(params) : buildFilteredQuery(params));
row('GET listing by id', await load({ url: apiUrl(`/${country}/listings/${listingId}`), headers: auth }));
for (const scenario of searches) {
  const apiRun = await load({ url: apiUrl(`/${country}/listings?${scenario.path}`), headers: auth });
  const rawRun = await load({ url: `${OPENSEARCH}/${alias}/_search`, method: 'POST', body: rawBody(parseListingSearch(scenario.query)) });
  row(scenario.name, apiRun, rawRun);
}
const categoryBody = JSON.stringify({ query: { bool: { filter: [{ term: { cc: country } }, { wildcard: { name_fold: { value: `*${fold('restaurant')}*` } } }] } }, sort: [{ name_fold: 'asc' }, { id: 'asc' }], size: 10000, _source: ['id', 'name'], track_total_hits: true });
row('categories: *restaurant*', await load({ url: apiUrl(`/${country}/categories?name=*restaurant*`), headers: auth }),
  await load({ url: `${OPENSEARCH}/${mode.prefix}categories/_search`, method: 'POST', body: categoryBody }));
row('POST create listing', await load({ url: apiUrl(`/${country}/listings`), method: 'POST', body: createBody, headers: auth }));

// Write-to-searchable lag at a steady 200 writes/s for 10 s: each write's time from its 201 to
// the moment a search on OpenSearch finds it.
await sleep(3000); // let the queue drain from the create benchmark
const os_ = new Client({ node: OPENSEARCH });
const acked = new Map<number, number>();
const lags: number[] = [];
const writer = (async () => {
  for (let tick = 0; tick < 100; tick++) {
    const due = Date.now() + 100;
    await Promise.all(Array.from({ length: 20 }, async () => {
      const res = await fetch(apiUrl(`/${country}/listings`), { method: 'POST', body: createBody, headers: { ...auth, 'content-type': 'application/json' } });
      if (res.status === 201) acked.set(Number((await res.json() as { id: string }).id), Date.now());
    }));
    await sleep(Math.max(0, due - Date.now()));
  }
})();
let writing = true;
writer.then(() => { writing = false; });
const deadline = Date.now() + 60_000;
while ((writing || acked.size > 0) && Date.now() < deadline) {
  const pending = [...acked.keys()];
  if (pending.length) {
    const res = await os_.search({ index: alias, body: { query: { terms: { lid: pending } }, _source: ['lid'], size: pending.length } });
    const now = Date.now();
    for (const hit of res.body.hits.hits as unknown as { _source: { lid: number } }[]) {
      lags.push(now - acked.get(hit._source.lid)!);
      acked.delete(hit._source.lid);
    }
  }
  await sleep(20);
}
lags.sort((a, b) => a - b);
const pct = (p: number) => lags[Math.min(lags.length - 1, Math.floor((p / 100) * lags.length))] ?? NaN;

// Reindex through the service (PostgreSQL → documents → bulk) against a raw _bulk of the same documents.
// The CLI's own timing: from its start of work to the alias swap, without the process start-up.
const reindexOut = cli('reindex', country);
const [, reindexed, reindexTime] = /reindexed (\d+) listings .* in ([\d.]+) s/.exec(reindexOut)!;
const indexed = Number(reindexed);
const reindexSeconds = Number(reindexTime);
const rawLimit = Math.min(indexed, 200_000);
const docs: unknown[] = [];
let after: unknown[] | undefined;
while (docs.length < rawLimit) {
  const res = await os_.search({ index: alias, body: { size: 5000, sort: [{ lid: 'asc' }], ...(after ? { search_after: after as number[] } : {}) } });
  const hits = res.body.hits.hits as unknown as { _id: string; _source: unknown; sort: unknown[] }[];
  if (!hits.length) break;
  for (const h of hits) docs.push({ index: { _index: 'REPLACE', _id: h._id } }, h._source);
  after = hits[hits.length - 1]!.sort;
}
const rawIndex = `${mode.prefix}rawbulk-${Date.now()}`;
const definition = JSON.parse(readFileSync('mappings/listings.json', 'utf8'));
// Timed like the reindex: creating the index, loading it, and the final refresh.
const rawStarted = Date.now();
await os_.indices.create({ index: rawIndex, body: { ...definition, settings: { ...definition.settings, refresh_interval: '-1' } } });
await os_.cluster.health({ index: rawIndex, wait_for_status: 'yellow', timeout: '30s' });
for (let i = 0; i < docs.length; i += 2000) {
  const body = docs.slice(i, i + 2000).map((d) => ((d as { index?: { _index: string } }).index ? { index: { ...(d as { index: object }).index, _index: rawIndex } } : d));
  await os_.bulk({ body: body as never[] });
}
await os_.indices.refresh({ index: rawIndex });
const rawSeconds = (Date.now() - rawStarted) / 1000;
await os_.indices.delete({ index: rawIndex });
const reindexRate = indexed / reindexSeconds;
const rawRate = docs.length / 2 / rawSeconds;

const apiRss = memoryMb(api.pid!).peak;
const indexerRss = memoryMb(indexer.pid!).peak;
await service.stop();
await os_.close();

const section = `## ${mode.name} mode — ${new Date().toISOString().slice(0, 16)}Z

${await machineDescription()}
Data set: ${mode.listings.toLocaleString('en')} listings in \`${country}\`${seedSeconds ? ` (seeded and searchable in ${seedSeconds.toFixed(0)} s)` : ''}. autocannon, ${CONNECTIONS} connections, ${mode.seconds} s per run;
each search runs against the API and then the same OpenSearch query sent directly (raw). Latencies in ms.

| Scenario | API req/s | API p50 | API p99 | raw req/s | raw p50 | raw p99 | API/raw | p99 − raw p99 | errors |
|---|---|---|---|---|---|---|---|---|---|
${rows.join('\n')}

| Also measured | Result | Target |
|---|---|---|
| write → searchable at 200 writes/s (${lags.length} writes) | p50 ${pct(50)} ms, p99 ${pct(99)} ms | p99 ≤ 2000 ms |
| reindex through the service vs raw \`_bulk\` of the same documents | ${reindexRate.toFixed(0)} docs/s vs ${rawRate.toFixed(0)} docs/s = ${(reindexRate / rawRate).toFixed(2)} | ≥ 0.8 |
| peak RSS, API | ${apiRss.toFixed(0)} MB | ≤ 200 MB |
| peak RSS, indexer | ${indexerRss.toFixed(0)} MB | |

Reproduce: \`npm run bench${quick ? ' -- --quick' : ''}\`
`;
writeResultsSection(`${mode.name} mode`, section);
console.log(section);
process.exit(0);

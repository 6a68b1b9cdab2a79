// Benchmarks of the API against raw OpenSearch, side by side in one run.
//   npm run bench -- --quick     50 000 listings, seconds per scenario
//   npm run bench                1 000 000 listings
// Starts its own API and indexer processes on a database and index prefix of their own, seeds
// the data set if it is smaller than wanted, and writes bench/RESULTS.md.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createReadStream, createWriteStream, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { finished } from 'node:stream/promises';
import { Client } from '@opensearch-project/opensearch';
import { bulkBody } from '../indexer/bulk-write.js';
import { listingBulkAction } from '../indexer/listing-sync.js';
import { listingIdPages } from '../indexer/reindex.js';
import { indexLayout, loadConfig, publicUrls } from '../src/platform/config.js';
import { createDatabase } from '../src/db/client.js';
import { loadListingsForIndex } from '../src/listings/listing-reads-dal.js';
import { listingsIndexBody } from '../src/opensearch/index-setup.js';
import { fold } from '../src/search/fold.js';
import {
  apiUrl,
  benchRequests,
  CONNECTIONS,
  COUNTRY as country,
  enginePids,
  FULL,
  load as loadFor,
  machineDescription,
  OPENSEARCH,
  QUICK,
  sleep,
  startBenchService,
  trackWrites,
  withCpu,
  type CpuShare,
  type Measured,
} from './service.js';
import { writeResults } from './results-file.js';
import { memoryMb } from './proc.js';
import { createSearchBody } from './search-body.js';

const quick = process.argv.includes('--quick');
const mode = quick ? QUICK : FULL;
const load = (opts: Omit<Parameters<typeof loadFor>[0], 'seconds'>) => loadFor({ ...opts, seconds: mode.seconds });

const service = await startBenchService(mode);
const { auth, alias, cli, seedSeconds, api, indexer } = service;
const { listingId, searches, createBody } = await benchRequests(service.db);

// The floor of one Node HTTP hop (bench/node-hop.ts), measured beside the API and raw OpenSearch.
const HOP_PORT = 3102;
const hop = spawn(process.execPath, ['--import', 'tsx', 'bench/node-hop.ts'], {
  env: { ...process.env, PORT: String(HOP_PORT), OPENSEARCH_URL: OPENSEARCH },
  stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
});
await once(hop, 'message');
const pids = await enginePids();

const rows: string[] = [];
const cpuRows: string[] = [];
const us = (run: CpuShare, name: string) => (run.perRequestUs[name] ?? 0).toFixed(0);
const totalUs = (run: CpuShare) => Object.values(run.perRequestUs).reduce((a, b) => a + b, 0);
/** Where each request's CPU went, in the API run and in the raw run, and the Node hop's figures. */
const cpuRow = (name: string, apiRun: Measured & CpuShare, rawRun: Measured & CpuShare, hopRun: Measured) =>
  cpuRows.push(
    `| ${name} | ${us(rawRun, 'opensearch')} + ${us(rawRun, 'load generator')} = ${totalUs(rawRun).toFixed(0)} | ${(rawRun.machineBusy * 100).toFixed(0)} % ` +
      `| ${us(apiRun, 'opensearch')} + ${us(apiRun, 'api')} + ${us(apiRun, 'redis')} + ${us(apiRun, 'load generator')} = ${totalUs(apiRun).toFixed(0)} | ${(apiRun.machineBusy * 100).toFixed(0)} % ` +
      `| ${(totalUs(rawRun) / totalUs(apiRun)).toFixed(2)} | ${(apiRun.rps / rawRun.rps).toFixed(2)} | ${hopRun.rps.toFixed(0)} | ${(hopRun.rps / rawRun.rps).toFixed(2)} |`,
  );
const row = (name: string, a: Measured, raw?: Measured, rawOne?: Measured) =>
  rows.push(
    `| ${name} | ${a.rps.toFixed(0)} | ${a.p50} | ${a.p99} | ${raw ? raw.rps.toFixed(0) : '–'} | ${raw ? raw.p50 : '–'} | ${raw ? raw.p99 : '–'} | ${rawOne ? rawOne.p50 : '–'} | ${raw ? (a.rps / raw.rps).toFixed(2) : '–'} | ${raw ? `${(a.p99 - raw.p99).toFixed(0)} ms` : '–'} | ${a.errors + (raw?.errors ?? 0)} |`,
  );

const os_ = new Client({ node: OPENSEARCH });
const searchBody = createSearchBody({ opensearch: os_, prefix: mode.prefix, country });
row('GET listing by id', await load({ url: apiUrl(`/${country}/listings/${listingId}`), headers: auth }));
/** One search three ways: through the API, raw on OpenSearch, and through the bare Node hop. */
async function compare(name: string, apiPath: string, index: string, body: string) {
  const apiRun = await withCpu({ api: api.pid!, opensearch: pids.opensearch, redis: pids.redis }, () => load({ url: apiUrl(apiPath), headers: auth }));
  const rawRun = await withCpu({ opensearch: pids.opensearch }, () => load({ url: `${OPENSEARCH}/${index}/_search`, method: 'POST', body }));
  const hopRun = await load({ url: `http://127.0.0.1:${HOP_PORT}/${index}/_search`, method: 'POST', body });
  // One connection: the latency of a single request when nothing else competes for the cores.
  const rawOne = await load({ url: `${OPENSEARCH}/${index}/_search`, method: 'POST', body, connections: 1 });
  row(name, apiRun, rawRun, rawOne);
  cpuRow(name, apiRun, rawRun, hopRun);
}
for (const scenario of searches) {
  await compare(scenario.name, `/${country}/listings?${scenario.path}`, alias, await searchBody(scenario.query));
}
const categoryBody = JSON.stringify({
  query: { bool: { filter: [{ term: { cc: country } }, { wildcard: { 'internal.name_fold': { value: `*${fold('restaurant')}*` } } }] } },
  sort: [{ 'internal.name_fold': 'asc' }, { id: 'asc' }],
  size: 10000,
  _source: ['id', 'name'],
  track_total_hits: true,
});
await compare('categories: *restaurant*', `/${country}/categories?name=*restaurant*`, `${mode.prefix}categories`, categoryBody);
hop.kill();
row('POST create listing', await load({ url: apiUrl(`/${country}/listings`), method: 'POST', body: createBody, headers: auth }));

// Write-to-searchable lag at a steady 200 writes/s for 10 s.
await sleep(3000); // let the queue drain from the create benchmark
const { lags, pct } = await trackWrites({ os: os_, alias, createUrl: apiUrl(`/${country}/listings`), body: createBody, headers: auth, seconds: 10, perTick: 20 });

// Reindex through the service (PostgreSQL → documents → bulk) against a raw _bulk of the same documents.
// The CLI's own timing: from its start of work to the alias swap, without the process start-up.
const reindexOut = cli('reindex', country);
const [, reindexed, reindexTime] = /reindexed (\d+) listings .* in ([\d.]+) s/.exec(reindexOut)!;
const indexed = Number(reindexed);
const reindexSeconds = Number(reindexTime);
// The raw side bulks the lines the reindex sends (indexer/bulk-write.ts bulkBody): the same
// documents, built from PostgreSQL the same way, with every field, those kept out of `_source`
// (typo forms, listing_text) too, and the same external versions. They are written to an NDJSON
// file first (not timed), then read from it and bulked 2 000 at a time into a fresh index with the
// same definition, timed like the reindex: creating the index, loading it, merging it to one
// segment as the reindex does, and the final refresh.
const rawIndex = `${mode.prefix}rawbulk-${Date.now()}`;
const exportFile = join(tmpdir(), `${mode.prefix}rawbulk-${process.pid}.ndjson`);
const exportStream = createWriteStream(exportFile);
// The configuration the CLI's reindex ran with: its database, public URLs and index layout.
const config = loadConfig(service.env);
const database = createDatabase(config.DATABASE_URL, 4);
const urls = publicUrls(config);
let exported = 0;
for await (const ids of listingIdPages(database.db, country, 1000)) {
  const records = await loadListingsForIndex(database.db, ids);
  const actions = [...records.values()].map((record) => listingBulkAction(record, rawIndex, urls));
  const lines = bulkBody(actions);
  if (!exportStream.write(lines)) await once(exportStream, 'drain');
  exported += actions.length;
}
await database.close();
exportStream.end();
await finished(exportStream);
const rawStarted = Date.now();
// The reindex's own definition and layout (shards and replicas).
await os_.indices.create({ index: rawIndex, body: listingsIndexBody(indexLayout(config), { refresh_interval: '-1' }) });
await os_.cluster.health({ index: rawIndex, wait_for_status: 'yellow', timeout: '30s' });
let batch: string[] = [];
const bulkBatch = async () => {
  const res = await os_.bulk({ body: `${batch.join('\n')}\n` as never });
  if (res.body.errors) throw new Error('raw bulk: some documents were refused');
  batch = [];
};
for await (const line of createInterface({ input: createReadStream(exportFile) })) {
  batch.push(line);
  if (batch.length === 4000) await bulkBatch(); // 2 000 documents: action and source lines
}
if (batch.length) await bulkBatch();
await os_.indices.forcemerge({ index: rawIndex, max_num_segments: 1 }, { requestTimeout: 3_600_000 });
await os_.indices.refresh({ index: rawIndex });
const rawSeconds = (Date.now() - rawStarted) / 1000;
await os_.indices.delete({ index: rawIndex });
rmSync(exportFile);
const reindexRate = indexed / reindexSeconds;
const rawRate = exported / rawSeconds;

const apiRss = memoryMb(api.pid!).peak;
const indexerRss = memoryMb(indexer.pid!).peak;
await service.stop();
await os_.close();

const section = `${await machineDescription()}
Data set: ${service.listings.toLocaleString('en')} listings in \`${country}\`${seedSeconds ? ` (seeded and searchable in ${seedSeconds.toFixed(0)} s)` : ''}. autocannon, ${CONNECTIONS} connections, ${mode.seconds} s per run;
each search runs against the API and then the same OpenSearch query sent directly (raw). Latencies in ms.

| Scenario | API req/s | API p50 | API p99 | raw req/s | raw p50 | raw p99 | raw p50, 1 connection | API/raw | p99 − raw p99 | errors |
|---|---|---|---|---|---|---|---|---|---|---|
${rows.join('\n')}

Where the CPU goes, in microseconds of CPU per request (user + system, all threads, from /proc), and how busy
the whole machine was during the run. If both runs keep the machine busy, API/raw can be no better than
raw CPU ÷ API-run CPU. The bare Node hop (\`bench/node-hop.ts\`: the request piped to OpenSearch and the answer
piped back, nothing else) is the ceiling of any Node service in front of OpenSearch on this machine.

| Scenario | raw: OpenSearch + load generator | machine busy | API run: OpenSearch + API + Redis + load generator | machine busy | raw CPU ÷ API-run CPU | API/raw measured | Node hop req/s | hop/raw |
|---|---|---|---|---|---|---|---|---|
${cpuRows.join('\n')}

| Also measured | Result | Target |
|---|---|---|
| write → searchable at 200 writes/s (${lags.length} writes) | p50 ${pct(50)} ms, p99 ${pct(99)} ms | p99 ≤ 2000 ms |
| reindex through the service vs raw \`_bulk\` of the same documents | ${reindexRate.toFixed(0)} docs/s vs ${rawRate.toFixed(0)} docs/s = ${(reindexRate / rawRate).toFixed(2)} | ≥ 0.8 |
| peak RSS, API | ${apiRss.toFixed(0)} MB | ≤ 200 MB |
| peak RSS, indexer | ${indexerRss.toFixed(0)} MB | |

Reproduce: \`npm run bench${quick ? ' -- --quick' : ''}\`
`;
writeResults('bench', `${mode.name} mode`, section);
console.log(section);
process.exit(0);

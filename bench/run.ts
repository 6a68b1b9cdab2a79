// Benchmarks of the API against raw OpenSearch, side by side in one run (issue 7).
//   npm run bench -- --quick     50 000 listings, seconds per scenario
//   npm run bench                1 000 000 listings
// Starts its own API and indexer processes on a database and index prefix of their own, seeds
// the data set if it is smaller than wanted, and writes bench/RESULTS.md.
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import autocannon from 'autocannon';
import pg from 'pg';
import { Client } from '@opensearch-project/opensearch';
import { buildFilteredQuery } from '../src/search/query/filtered-query.js';
import { buildSolrQuery } from '../src/search/query/solr-query.js';
import { parseListingSearch, type ListingSearch, type ListingSearchQuery } from '../src/search/search-params.js';
import { fold } from '../src/search/fold.js';

const quick = process.argv.includes('--quick');
const mode = quick
  ? { name: 'quick', listings: 50_000, seconds: 5, db: 'listings_bench', prefix: 'bench-' }
  : { name: 'full', listings: 1_000_000, seconds: 20, db: 'listings_bench_full', prefix: 'benchfull-' };
const CONNECTIONS = 10;
const API_PORT = 3100;
const INDEXER_PORT = 3101;
const country = 'de';
const env = {
  ...process.env,
  DATABASE_URL: `postgres://postgres@127.0.0.1:5432/${mode.db}`,
  INDEX_PREFIX: mode.prefix,
  QUEUE_PREFIX: `listings-${mode.prefix}bench`,
  PORT: String(API_PORT),
  INDEXER_PORT: String(INDEXER_PORT),
  LOG_LEVEL: 'warn',
  RATE_LIMIT_MAX: '1000000000',
  NODE_ENV: 'production',
};
const OPENSEARCH = process.env.OPENSEARCH_URL ?? 'http://127.0.0.1:9200';
const alias = `${mode.prefix}listings-${country}`;

const cli = (...args: string[]) => execFileSync('npx', ['tsx', 'src/cli.ts', ...args], { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function start(script: string): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', script], { env, stdio: ['ignore', 'inherit', 'inherit'] });
}

/** Peak resident set size of a process, from the kernel's high-water mark. */
const peakRssMb = (pid: number) => Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

async function waitReady(url: string) {
  for (let i = 0; i < 120; i++) {
    if (await fetch(url).then((r) => r.ok, () => false)) return;
    await sleep(500);
  }
  throw new Error(`${url} not ready`);
}

interface Measured { rps: number; p50: number; p99: number; errors: number }
async function load(opts: { url: string; method?: 'GET' | 'POST'; body?: string; headers?: Record<string, string> }): Promise<Measured> {
  const result = await autocannon({
    url: opts.url, method: opts.method ?? 'GET', body: opts.body, headers: { 'content-type': 'application/json', ...opts.headers },
    connections: CONNECTIONS, duration: mode.seconds,
  });
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, errors: result.errors + result.non2xx };
}

try {
  execFileSync('psql', ['-h', '127.0.0.1', '-U', 'postgres', '-qc', `create database ${mode.db}`], { stdio: 'ignore' });
} catch {
  // the database exists already
}

cli('setup');
const db = new pg.Pool({ connectionString: env.DATABASE_URL, max: 4 });
const live = Number((await db.query('select count(*) from listings where country = $1 and deleted_at is null', [country])).rows[0].count);
let seedSeconds: number | undefined;
if (live < mode.listings) {
  const started = Date.now();
  cli('seed', '--country', country, '--count', String(mode.listings - live), '--seed', '1');
  seedSeconds = (Date.now() - started) / 1000;
}
const key = cli('partner', 'create', `bench-${Date.now()}`, '--admin').trim().split('\n').pop()!;
const auth = { authorization: `Bearer ${key}` };

const api = start('src/server.ts');
const indexer = start('indexer/main.ts');
await waitReady(`http://127.0.0.1:${API_PORT}/readyz`);
await waitReady(`http://127.0.0.1:${INDEXER_PORT}/readyz`);

// Sample values that exist in the data set.
const sample = (await db.query(`select l.id, l.name, l.address, l.zip, l.place, l.latitude, l.longitude, p.number
  from listings l join listing_phones p on p.listing_id = l.id
  where l.country = $1 and l.active and not l.suppressed and l.deleted_at is null order by l.id limit 200`, [country])).rows;
const ids = sample.slice(0, 20).map((r) => r.id).join(',');
const s = sample[7]!;
const street = s.address.replace(/\s+\S+$/, '');
const nameWord = (sample.find((r) => /^[A-Za-zÄÖÜäöüß]{7,}$/.test(r.name.split(' ')[0] ?? ''))?.name.split(' ')[0] ?? 'Bäckerei') as string;
const typo = nameWord.slice(0, 3) + nameWord[4] + nameWord[3] + nameWord.slice(5); // one transposition

const searches: { name: string; query: ListingSearchQuery; path: string }[] = [
  { name: 'filtered: ids (20)', query: { ids }, path: `ids=${ids}` },
  { name: 'filtered: phone', query: { phone: s.number }, path: `phone=${encodeURIComponent(s.number)}` },
  { name: 'filtered: address with wildcard', query: { street: `${street.slice(0, 5)}*`, place: s.place, postCode: s.zip }, path: `street=${encodeURIComponent(street.slice(0, 5))}*&place=${encodeURIComponent(s.place)}&postCode=${s.zip}` },
  { name: `solr: what with a typo (${typo})`, query: { solr: true, what: typo }, path: `solr=true&what=${encodeURIComponent(typo)}` },
  { name: 'solr: what + where', query: { solr: true, what: 'Restaurant', where: s.place }, path: `solr=true&what=Restaurant&where=${encodeURIComponent(s.place)}` },
  { name: 'solr: what + lat/lon', query: { solr: true, what: 'Restaurant', lat: s.latitude, lon: s.longitude }, path: `solr=true&what=Restaurant&lat=${s.latitude}&lon=${s.longitude}` },
];

const rows: string[] = [];
const row = (name: string, a: Measured, raw?: Measured) => rows.push(`| ${name} | ${a.rps.toFixed(0)} | ${a.p50} | ${a.p99} | ${raw ? raw.rps.toFixed(0) : '–'} | ${raw ? raw.p50 : '–'} | ${raw ? raw.p99 : '–'} | ${raw ? (a.rps / raw.rps).toFixed(2) : '–'} | ${raw ? `${(a.p99 - raw.p99).toFixed(0)} ms` : '–'} | ${a.errors + (raw?.errors ?? 0)} |`);

const rawBody = (params: ListingSearch) => JSON.stringify(params.kind === 'solr' ? buildSolrQuery(params) : buildFilteredQuery(params));
row('GET listing by id', await load({ url: `http://127.0.0.1:${API_PORT}/${country}/listings/${s.id}`, headers: auth }));
for (const scenario of searches) {
  const apiRun = await load({ url: `http://127.0.0.1:${API_PORT}/${country}/listings?${scenario.path}`, headers: auth });
  const rawRun = await load({ url: `${OPENSEARCH}/${alias}/_search`, method: 'POST', body: rawBody(parseListingSearch(scenario.query)) });
  row(scenario.name, apiRun, rawRun);
}
const categoryBody = JSON.stringify({ query: { bool: { filter: [{ term: { cc: country } }, { wildcard: { name_fold: { value: `*${fold('restaurant')}*` } } }] } }, sort: [{ name_fold: 'asc' }, { id: 'asc' }], size: 10000, _source: ['id', 'name'], track_total_hits: true });
row('categories: *restaurant*', await load({ url: `http://127.0.0.1:${API_PORT}/${country}/categories?name=*restaurant*`, headers: auth }),
  await load({ url: `${OPENSEARCH}/${mode.prefix}categories/_search`, method: 'POST', body: categoryBody }));
const createBody = JSON.stringify({ name: 'Bench Café', address: 'Hauptstraße 1', zip: '10115', place: 'Berlin', latitude: 52.52, longitude: 13.4, categories: [{ id: 'amenity/cafe' }], phones: [{ type: 'landline', number: '+49301234567' }] });
row('POST create listing', await load({ url: `http://127.0.0.1:${API_PORT}/${country}/listings`, method: 'POST', body: createBody, headers: auth }));

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
      const res = await fetch(`http://127.0.0.1:${API_PORT}/${country}/listings`, { method: 'POST', body: createBody, headers: { ...auth, 'content-type': 'application/json' } });
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
const reindexStarted = Date.now();
const reindexOut = cli('reindex', country);
const reindexSeconds = (Date.now() - reindexStarted) / 1000;
const indexed = Number(/reindexed (\d+)/.exec(reindexOut)![1]);
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
await os_.indices.create({ index: rawIndex, body: { ...definition, settings: { ...definition.settings, refresh_interval: '-1' } } });
const rawStarted = Date.now();
for (let i = 0; i < docs.length; i += 2000) {
  const body = docs.slice(i, i + 2000).map((d) => ((d as { index?: { _index: string } }).index ? { index: { ...(d as { index: object }).index, _index: rawIndex } } : d));
  await os_.bulk({ body: body as never[] });
}
await os_.indices.refresh({ index: rawIndex });
const rawSeconds = (Date.now() - rawStarted) / 1000;
await os_.indices.delete({ index: rawIndex });
const reindexRate = indexed / reindexSeconds;
const rawRate = docs.length / 2 / rawSeconds;

const apiRss = peakRssMb(api.pid!);
const indexerRss = peakRssMb(indexer.pid!);
api.kill('SIGTERM');
indexer.kill('SIGTERM');
await db.end();
await os_.close();

const osVersion = (await fetch(OPENSEARCH).then((r) => r.json()) as { version: { number: string } }).version.number;
const pgVersion = execFileSync('psql', ['-h', '127.0.0.1', '-U', 'postgres', '-tAc', 'show server_version']).toString().trim();
const section = `## ${mode.name} mode — ${new Date().toISOString().slice(0, 16)}Z

Machine: ${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown'}), ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB; Node ${process.version},
OpenSearch ${osVersion} (minimal distribution, 512 MiB heap), PostgreSQL ${pgVersion}, Redis ${execFileSync('redis-server', ['--version']).toString().split(' ')[2]?.replace('v=', '')}.
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
const file = 'bench/RESULTS.md';
const previous = (() => { try { return readFileSync(file, 'utf8'); } catch { return '# Benchmark results\n\n'; } })();
const header = previous.split(/^## /m)[0]!;
const others = previous.split(/^## /m).slice(1).filter((s) => !s.startsWith(`${mode.name} mode`)).map((s) => `## ${s}`);
writeFileSync(file, [header.trimEnd() + '\n', section, ...others].join('\n'));
console.log(section);
process.exit(0);

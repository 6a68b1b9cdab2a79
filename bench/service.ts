// What every benchmark needs: a data set of its own (database and index prefix), the API and the
// indexer started as real processes on it, requests made from real rows, autocannon runs and memory
// readings. Used by every benchmark; bench/results-file.ts writes their sections of bench/RESULTS.md.
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import os from 'node:os';
import autocannon from 'autocannon';
import { DateTime } from 'luxon';
import pg from 'pg';
import { defaultTimeZone } from '../src/platform/config.js';
import { openSearchNodes } from '../src/opensearch/client.js';
import { processNodeFlags } from '../src/platform/project-paths.js';
import { cpuSeconds, cpuSecondsOfCommand, machineCpuSeconds } from './proc.js';
import type { ListingSearchQuery } from '../src/schemas/search.js';

export interface Mode {
  name: string;
  listings: number;
  seconds: number;
  db: string;
  prefix: string;
}
export const QUICK: Mode = { name: 'quick', listings: 50_000, seconds: 5, db: 'listings_bench', prefix: 'bench-' };
export const FULL: Mode = { name: 'full', listings: 1_000_000, seconds: 20, db: 'listings_bench_full', prefix: 'benchfull-' };
/** The data set of the request-path and write-path benchmarks (issue 18's figures are at 200 000 listings). */
export const PATH: Mode = { name: 'request path', listings: 200_000, seconds: 5, db: 'listings_bench_path', prefix: 'benchpath-' };

export const CONNECTIONS = 10;
export const API_PORT = 3100;
export const INDEXER_PORT = 3101;
export const COUNTRY = 'de';
// One node: the raw side and the CPU readings (enginePids) are of the node the benchmark talks to;
// with a list in OPENSEARCH_URL, the first.
export const OPENSEARCH = openSearchNodes(process.env.OPENSEARCH_URL ?? 'http://127.0.0.1:9200')[0]!;
export const apiUrl = (path: string) => `http://127.0.0.1:${API_PORT}${path}`;
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function benchEnv(mode: Mode): NodeJS.ProcessEnv {
  return {
    ...process.env,
    DATABASE_URL: `postgres://postgres@127.0.0.1:5432/${mode.db}`,
    INDEX_PREFIX: mode.prefix,
    QUEUE_PREFIX: `listings-${mode.prefix}bench`,
    PORT: String(API_PORT),
    INDEXER_PORT: String(INDEXER_PORT),
    LOG_LEVEL: 'warn',
    RATE_LIMIT_MAX: '1000000000',
    IP_RATE_LIMIT_MAX: '1000000000',
    NODE_ENV: 'production',
    // Production needs a key of its own for webhook secrets; any fixed one serves a benchmark.
    WEBHOOK_SECRET_KEY: 'b'.repeat(64),
  };
}

export const cliIn =
  (env: NodeJS.ProcessEnv) =>
  (...args: string[]) =>
    execFileSync('npx', ['tsx', 'src/cli.ts', ...args], { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });

export interface CpuShare {
  /** CPU microseconds per answered request, per process, plus `load generator` (this process). */
  perRequestUs: Record<string, number>;
  /** Share of the machine's CPU time that was busy during the run (every process). */
  machineBusy: number;
}

/** Runs `run` and reports the CPU each of `pids` and the load generator spent per request. */
export async function withCpu(pids: Record<string, number>, run: () => Promise<Measured>): Promise<Measured & CpuShare> {
  const before = Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, cpuSeconds(pid)]));
  const ownBefore = process.cpuUsage();
  const machineBefore = machineCpuSeconds();
  const measured = await run();
  const machineAfter = machineCpuSeconds();
  const own = process.cpuUsage(ownBefore);
  const perRequestUs: Record<string, number> = {};
  for (const [name, pid] of Object.entries(pids)) perRequestUs[name] = ((cpuSeconds(pid) - before[name]!) * 1e6) / measured.requests;
  perRequestUs['load generator'] = (own.user + own.system) / measured.requests;
  const machineBusy = (machineAfter.busy - machineBefore.busy) / (machineAfter.total - machineBefore.total);
  return { ...measured, perRequestUs, machineBusy };
}

/** The pids of the OpenSearch node and the Redis server the benchmark talks to. */
export async function enginePids(): Promise<{ opensearch: number; redis: number }> {
  const nodes = (await fetch(`${OPENSEARCH}/_nodes/_local/process`).then((r) => r.json())) as { nodes: Record<string, { process: { id: number } }> };
  const redisInfo = execFileSync('redis-cli', ['info', 'server']).toString();
  return { opensearch: Object.values(nodes.nodes)[0]!.process.id, redis: Number(/process_id:(\d+)/.exec(redisInfo)![1]) };
}

async function waitReady(url: string) {
  for (let i = 0; i < 120; i++) {
    if (
      await fetch(url).then(
        (r) => r.ok,
        () => false,
      )
    )
      return;
    await sleep(500);
  }
  throw new Error(`${url} not ready`);
}

// One keep-alive connection for sequential requests: fetch (undici) cost OpenSearch twice the
// CPU per request of a plain keep-alive agent in this benchmark, which would blur the figures.
const keepAlive = new http.Agent({ keepAlive: true, maxSockets: 1 });

/** One request over `agent`'s keep-alive connection; resolves with the status once the answer is read. */
export function send(url: string, method: 'GET' | 'POST', body?: string, headers: Record<string, string> = {}, agent = keepAlive): Promise<number> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: target.hostname,
        port: target.port,
        path: `${target.pathname}${target.search}`,
        method,
        agent,
        headers: { ...headers, ...(body ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } : {}) },
      },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

/**
 * POSTs a JSON body over `agent`'s keep-alive connections (by default the one above); resolves with
 * the answer's status and text.
 */
export function post(url: string, body: string, { headers = {}, agent = keepAlive }: { headers?: Record<string, string>; agent?: http.Agent } = {}): Promise<{ status: number; text: string }> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: target.hostname,
        port: target.port,
        path: `${target.pathname}${target.search}`,
        method: 'POST',
        agent,
        headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          text += chunk;
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

/** POSTs a JSON body over the keep-alive connection; resolves with the answer's text. */
export const postJson = async (url: string, body: string): Promise<string> => (await post(url, body)).text;

export interface Measured {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  requests: number;
}
export type Request = {
  method?: 'GET' | 'POST' | 'PUT';
  path: string;
  body?: string;
  /**
   * Called by autocannon before each send with the request it built (host and headers
   * included); returns the request to send instead. Lets a request vary per send, e.g. the next
   * listing of a rotation shared by every connection (bench/own-listing-writes.ts).
   */
  setupRequest?: (request: autocannon.Request) => autocannon.Request;
};

/** One autocannon run: a single URL, or a list of requests each connection cycles through. */
export async function load(opts: {
  url: string;
  method?: 'GET' | 'POST';
  body?: string;
  headers?: Record<string, string>;
  requests?: Request[];
  seconds: number;
  overallRate?: number;
  connections?: number;
}): Promise<Measured> {
  const result = await autocannon({
    url: opts.url,
    method: opts.method ?? 'GET',
    body: opts.body,
    headers: { 'content-type': 'application/json', ...opts.headers },
    connections: opts.connections ?? CONNECTIONS,
    duration: opts.seconds,
    ...(opts.requests ? { requests: opts.requests } : {}),
    ...(opts.overallRate ? { overallRate: opts.overallRate } : {}),
  });
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, errors: result.errors + result.non2xx, requests: result.requests.total };
}

/**
 * Makes sure the mode's data set exists (creating the database and seeding what is missing), then
 * starts the API and the indexer on it. Returns what the scenarios need.
 */
export async function startBenchService(mode: Mode) {
  const env = benchEnv(mode);
  const cli = cliIn(env);
  try {
    execFileSync('psql', ['-h', '127.0.0.1', '-U', 'postgres', '-qc', `create database ${mode.db}`], { stdio: 'ignore' });
  } catch {
    // the database exists already
  }
  cli('setup');
  const db = new pg.Pool({ connectionString: env.DATABASE_URL, max: 4 });
  const live = Number((await db.query('select count(*) from listings where country = $1 and deleted_at is null', [COUNTRY])).rows[0].count);
  let seedSeconds: number | undefined;
  if (live < mode.listings) {
    const started = Date.now();
    cli('seed', '--country', COUNTRY, '--count', String(mode.listings - live), '--seed', '1');
    seedSeconds = (Date.now() - started) / 1000;
  }
  // What the runs meet: the data set grows by every create a write measurement makes, and is
  // seeded up to the mode's size, never cut back to it.
  const listings = Math.max(live, mode.listings);
  const key = cli('partner', 'create', `bench-${Date.now()}`, '--admin').trim().split('\n').pop()!;
  // The compiled JavaScript that production runs (npm run build), not tsx, with its V8 flags.
  execFileSync('npm', ['run', '--silent', 'build'], { stdio: 'inherit' });
  const start = (script: string): ChildProcess => spawn(process.execPath, [...processNodeFlags(), script], { env, stdio: ['ignore', 'inherit', 'inherit'] });
  const api = start('dist/src/server.js');
  const indexer = start('dist/indexer/main.js');
  // A benchmark that crashes must not leave them running: the next run would find the ports taken.
  process.once('exit', () => {
    api.kill('SIGTERM');
    indexer.kill('SIGTERM');
  });
  await waitReady(apiUrl('/readyz'));
  await waitReady(`http://127.0.0.1:${INDEXER_PORT}/readyz`);
  return {
    env,
    cli,
    db,
    seedSeconds,
    listings,
    api,
    indexer,
    auth: { authorization: `Bearer ${key}` },
    alias: `${mode.prefix}listings-${COUNTRY}`,
    async stop() {
      api.kill('SIGTERM');
      indexer.kill('SIGTERM');
      await db.end();
    },
  };
}

/** A small `size: 0` aggregation: bench:analytics times it through /analytics against OpenSearch directly; bench:profile profiles it. */
export const STATUS_TERMS = { size: 0, aggs: { by_status: { terms: { field: 'status' } } } };

/** A search scenario: its query as the API parses it and as a URL's query string. */
export interface BenchSearch {
  name: string;
  query: ListingSearchQuery;
  path: string;
  /** The scenario this one repeats with an open-hours filter: bench/request-path.ts compares the two. */
  of?: string;
}

const queryString = (query: Partial<ListingSearchQuery>) =>
  Object.entries(query)
    .map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`)
    .join('&');

/** `base` keeping only the listings open at the instant `open` asks about (docs/contract.md §18). */
const openOnly = (base: BenchSearch, label: string, open: Pick<ListingSearchQuery, 'open_now' | 'open_at'>): BenchSearch => ({
  name: `${base.name} + ${label}`,
  query: { ...base.query, ...open },
  path: `${base.path}&${queryString(open)}`,
  of: base.name,
});

/** Searches (and the same searches narrowed to open listings) and a listing built from rows that exist in the data set. */
export async function benchRequests(db: pg.Pool) {
  const sample = (
    await db.query(
      `select l.id, l.name, l.address, l.zip, l.place, l.latitude, l.longitude, p.number
    from listings l join listing_phones p on p.listing_id = l.id
    where l.country = $1 and l.active and not l.suppressed and l.deleted_at is null order by l.id limit 200`,
      [COUNTRY],
    )
  ).rows;
  const ids = sample
    .slice(0, 20)
    .map((r) => r.id)
    .join(',');
  const s = sample[7]!;
  const street = s.address.replace(/\s+\S+$/, '');
  const nameWord = (sample.find((r) => /^[A-Za-zÄÖÜäöüß]{7,}$/.test(r.name.split(' ')[0] ?? ''))?.name.split(' ')[0] ?? 'Bäckerei') as string;
  const typo = nameWord.slice(0, 3) + nameWord[4] + nameWord[3] + nameWord.slice(5); // one transposition
  // A two-word name with a typo in the first letter of its second word, and its place misspelt.
  const named = sample.find((r) => /^\S+ [A-Za-zÄÖÜäöüß]{5,}$/.test(r.name) && r.place.length >= 5) ?? s;
  const [trade, surname = 'Muster'] = named.name.split(' ');
  const firstLetterTypo = `${trade} ${surname[0] === 'Q' ? 'W' : 'Q'}${surname.slice(1)}`;
  const placeTypo = named.place.slice(0, 2) + named.place[3] + named.place[2] + named.place.slice(4);
  const solr = (name: string, query: Omit<ListingSearchQuery, 'solr'>): BenchSearch => ({ name, query: { solr: true, ...query } as ListingSearchQuery, path: `solr=true&${queryString(query)}` });
  const address: BenchSearch = {
    name: 'filtered: address with wildcard',
    query: { street: `${street.slice(0, 5)}*`, place: s.place, postCode: s.zip },
    path: `street=${encodeURIComponent(street.slice(0, 5))}*&place=${encodeURIComponent(s.place)}&postCode=${s.zip}`,
  };
  const whatWhere = solr('solr: what + where', { what: 'Restaurant', where: s.place });
  const categoryNear = solr('solr: category + lat/lon', { category: 'Bäckerei', lat: s.latitude, lon: s.longitude });
  const searches: BenchSearch[] = [
    { name: 'filtered: ids (20)', query: { ids }, path: `ids=${ids}` },
    { name: 'filtered: phone', query: { phone: s.number }, path: `phone=${encodeURIComponent(s.number)}` },
    address,
    solr(`solr: what with a typo (${typo})`, { what: typo }),
    solr(`solr: name, first letter mistyped (${firstLetterTypo})`, { what: firstLetterTypo }),
    solr(`solr: what + where, a typo in each (${firstLetterTypo}, ${placeTypo})`, { what: firstLetterTypo, where: placeTypo }),
    whatWhere,
    solr('solr: what + lat/lon', { what: 'Restaurant', lat: s.latitude, lon: s.longitude }),
    categoryNear,
  ];
  // A fixed wall-clock time, unlike open_now: the same share of the seeded listings is open in
  // every run (at 10:30 four of the six hours patterns of src/seed/listing-generator.ts).
  const tuesdayMorning = DateTime.now().setZone(defaultTimeZone(COUNTRY)).startOf('week').plus({ weeks: 1, days: 1 }).set({ hour: 10, minute: 30 });
  // Kept apart from `searches`: only bench/request-path.ts runs them, so the mix of the other
  // benchmarks stays as it was.
  const openSearches: BenchSearch[] = [
    openOnly(address, 'open_now', { open_now: true }),
    openOnly(whatWhere, 'open_now', { open_now: true }),
    openOnly(categoryNear, 'open_now', { open_now: true }),
    openOnly(categoryNear, 'open_at Tuesday 10:30', { open_at: tuesdayMorning.toISO({ suppressMilliseconds: true })! }),
  ];
  const createBody = JSON.stringify({
    name: 'Bench Café',
    address: 'Hauptstraße 1',
    zip: '10115',
    place: 'Berlin',
    latitude: 52.52,
    longitude: 13.4,
    categories: [{ id: 'amenity/cafe' }],
    phones: [{ type: 'landline', number: '+49301234567' }],
  });
  return { listingId: s.id as number, searches, openSearches, createBody };
}

/** The machine and versions line every section starts with. */
export async function machineDescription(): Promise<string> {
  const osVersion = ((await fetch(OPENSEARCH).then((r) => r.json())) as { version: { number: string } }).version.number;
  const pgVersion = execFileSync('psql', ['-h', '127.0.0.1', '-U', 'postgres', '-tAc', 'show server_version']).toString().trim();
  const redisVersion = execFileSync('redis-server', ['--version']).toString().split(' ')[2]?.replace('v=', '');
  return `Machine: ${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown'}), ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB; Node ${process.version},
OpenSearch ${osVersion} (minimal distribution, 512 MiB heap), PostgreSQL ${pgVersion}, Redis ${redisVersion}.`;
}

/** The value below which `p` % of `values` (in any order) lie; NaN when there are none. */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

/** Index events written by the API and not yet applied by the indexer. */
export const outboxBacklog = async (db: pg.Pool) => Number((await db.query('select count(*) from outbox where processed_at is null')).rows[0].count);

/**
 * Creates listings through the API and measures each write's time from its 201 to the moment a
 * search on OpenSearch finds it. `perTick` creates start every 100 ms (a steady rate), or, with
 * `connections`, that many writers create back to back (the highest rate the API sustains).
 */
export async function trackWrites(opts: {
  os: import('@opensearch-project/opensearch').Client;
  alias: string;
  createUrl: string;
  body: string;
  headers: Record<string, string>;
  seconds: number;
  perTick?: number;
  connections?: number;
}) {
  const acked = new Map<number, number>();
  const lags: number[] = [];
  const createLatencies: number[] = [];
  let errors = 0;
  // A keep-alive connection per writer over node:http, as for every other request of the benchmarks
  // (postJson): fetch (undici) costs this process about twice the CPU a create, on the cores the
  // stack shares.
  const agent = new http.Agent({ keepAlive: true, maxSockets: opts.connections ?? opts.perTick ?? 20 });
  const create = async () => {
    const started = performance.now();
    const { status, text } = await post(opts.createUrl, opts.body, { headers: opts.headers, agent });
    createLatencies.push(performance.now() - started);
    if (status === 201) acked.set(Number((JSON.parse(text) as { id: string }).id), Date.now());
    else errors++;
  };
  const until = Date.now() + opts.seconds * 1000;
  const writer = opts.connections
    ? Promise.all(
        Array.from({ length: opts.connections }, async () => {
          while (Date.now() < until) await create();
        }),
      )
    : (async () => {
        while (Date.now() < until) {
          const due = Date.now() + 100;
          await Promise.all(Array.from({ length: opts.perTick ?? 20 }, create));
          await sleep(Math.max(0, due - Date.now()));
        }
      })();
  let writing = true;
  void writer.then(() => {
    writing = false;
  });
  const deadline = until + 60_000;
  while ((writing || acked.size > 0) && Date.now() < deadline) {
    const pending = [...acked.keys()];
    if (pending.length) {
      // Each hit's id from doc values, not _source: loading the _source of a poll's hits costs
      // OpenSearch ten times the CPU, on the cores the writes need.
      const res = await opts.os.search({
        index: opts.alias,
        filter_path: 'hits.hits.fields',
        body: { query: { terms: { lid: pending } }, _source: false, stored_fields: ['_none_'], docvalue_fields: ['lid'], size: pending.length },
      });
      const now = Date.now();
      for (const hit of (res.body.hits?.hits ?? []) as unknown as { fields: { lid: [number] } }[]) {
        const id = Number(hit.fields.lid[0]);
        lags.push(now - acked.get(id)!);
        acked.delete(id);
      }
    }
    await sleep(20);
  }
  await writer;
  agent.destroy();
  lags.sort((a, b) => a - b);
  createLatencies.sort((a, b) => a - b);
  return {
    lags,
    errors,
    unseen: acked.size,
    writes: createLatencies.length,
    writesPerSecond: createLatencies.length / opts.seconds,
    pct: (p: number) => percentile(lags, p),
    createPct: (p: number) => percentile(createLatencies, p),
  };
}

/**
 * Runs `run`, which makes writes, and returns what it returned with the CPU every process of the
 * stack spent per write (`writesOf` counts them), read around the run: on a machine whose cores are
 * all busy, the write rate is bounded by the sum of these per write.
 */
export async function withCpuPerWrite<T>(service: BenchService, run: () => Promise<T>, writesOf: (result: T) => number) {
  const perProcess: Record<string, () => number> = {
    API: () => cpuSeconds(service.api.pid!),
    indexer: () => cpuSeconds(service.indexer.pid!),
    PostgreSQL: () => cpuSecondsOfCommand('postgres'),
    Redis: () => cpuSecondsOfCommand('redis-server'),
    OpenSearch: () => cpuSecondsOfCommand('java'),
    'this bench (load + visibility polls)': () => cpuSeconds(process.pid),
  };
  const before = Object.fromEntries(Object.entries(perProcess).map(([name, read]) => [name, read()]));
  const machineBefore = machineCpuSeconds();
  const result = await run();
  const machineAfter = machineCpuSeconds();
  const cpuMsPerWrite = Object.entries(perProcess).map(([name, read]) => [name, ((read() - before[name]!) * 1000) / writesOf(result)] as const);
  return { result, cpuMsPerWrite, machineBusy: (machineAfter.busy - machineBefore.busy) / (machineAfter.total - machineBefore.total) };
}

export type BenchService = Awaited<ReturnType<typeof startBenchService>>;

/** POST create at `connections` writers for `seconds` (trackWrites), with each process's CPU per create. */
export async function measureCreates(
  service: BenchService,
  opts: {
    os: import('@opensearch-project/opensearch').Client;
    body: string;
    seconds: number;
    connections: number;
  },
) {
  const { result: writes, ...cpu } = await withCpuPerWrite(
    service,
    () =>
      trackWrites({
        os: opts.os,
        alias: service.alias,
        createUrl: apiUrl(`/${COUNTRY}/listings`),
        body: opts.body,
        headers: service.auth,
        seconds: opts.seconds,
        connections: opts.connections,
      }),
    (w) => w.writes,
  );
  return { writes, ...cpu };
}

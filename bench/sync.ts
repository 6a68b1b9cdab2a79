// Keeping a mirror in sync (docs/contract.md §14, §16), against the real API and indexer on the
// quick data set (50 000 listings), or with --full on the full one (1 000 000):
//   - export throughput through the API (listings/s, plain and gzip), beside a raw PostgreSQL
//     COPY of the same rows, which bounds what any export could reach;
//   - the API's RSS sampled during the export (its maximum: the export must not grow with size);
//   - feed lag: a write, then polling the feed until the change is there (p50/p99).
// Writes a section of bench/RESULTS.md.
//   npm run bench:sync [-- --full]
import { spawn } from 'node:child_process';
import http from 'node:http';
import { createGunzip } from 'node:zlib';
import { memoryMb } from './proc.js';
import { API_PORT, COUNTRY as country, FULL, QUICK, apiUrl, machineDescription, percentile, sleep, startBenchService } from './service.js';
import { writeResults } from './results-file.js';

const LAG_SAMPLES = 200;

const mode = process.argv.includes('--full') ? FULL : QUICK;
const service = await startBenchService(mode);
const { auth, api, db, env } = service;

interface ExportRun {
  listings: number;
  bytes: number;
  seconds: number;
  maxRssMb: number;
}

/** Streams one export (scope all, as the bench's admin) and counts its lines while sampling the API's RSS. */
function exportThroughApi(gzip: boolean): Promise<ExportRun> {
  return new Promise((resolve, reject) => {
    let maxRssMb = memoryMb(api.pid!).rss;
    const sampler = setInterval(() => {
      maxRssMb = Math.max(maxRssMb, memoryMb(api.pid!).rss);
    }, 50);
    const started = process.hrtime.bigint();
    const headers = { ...auth, ...(gzip ? { 'accept-encoding': 'gzip' } : {}) };
    http
      .get({ host: '127.0.0.1', port: API_PORT, path: `/${country}/listings/export?scope=all`, headers }, (res) => {
        if (res.statusCode !== 200) {
          clearInterval(sampler);
          reject(new Error(`export answered ${res.statusCode}`));
          return;
        }
        let bytes = 0;
        let newlines = 0;
        res.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
        });
        const body = gzip ? res.pipe(createGunzip()) : res;
        body.on('data', (chunk: Buffer) => {
          for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) newlines++;
        });
        body.on('end', () => {
          clearInterval(sampler);
          const seconds = Number(process.hrtime.bigint() - started) / 1e9;
          resolve({ listings: newlines - 1, bytes, seconds, maxRssMb }); // the last line is the end line
        });
        body.on('error', reject);
      })
      .on('error', reject);
  });
}

/** The same rows straight out of PostgreSQL (COPY … TO STDOUT through psql), as JSON, one a line. */
function rawCopy(): Promise<{ rows: number; bytes: number; seconds: number }> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const query = `copy (select row_to_json(l) from listings l where country = '${country}' and deleted_at is null order by id) to stdout`;
    const psql = spawn('psql', [env.DATABASE_URL!, '-qAtc', query], { stdio: ['ignore', 'pipe', 'inherit'] });
    let bytes = 0;
    let rows = 0;
    psql.stdout.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) rows++;
    });
    psql.on('error', reject);
    psql.on('close', (code) => (code === 0 ? resolve({ rows, bytes, seconds: Number(process.hrtime.bigint() - started) / 1e9 }) : reject(new Error(`psql exited with ${code}`))));
  });
}

async function call(method: string, path: string): Promise<{ status: number; body: string }> {
  const res = await fetch(apiUrl(path), { method, headers: auth });
  return { status: res.status, body: await res.text() };
}

/** Milliseconds from a write's answer until its change is in the feed, polling every few ms. */
async function feedLags(listingId: number): Promise<number[]> {
  let cursor = JSON.parse((await call('GET', `/${country}/changes?after=now`)).body).next as string;
  const lags: number[] = [];
  for (let i = 0; i < LAG_SAMPLES; i++) {
    const suppress = i % 2 === 0;
    const written = await call(suppress ? 'PUT' : 'DELETE', `/${country}/listings/${listingId}/suppress`);
    if (written.status !== 204) throw new Error(`suppress answered ${written.status}`);
    const committed = performance.now();
    for (;;) {
      const page = JSON.parse((await call('GET', `/${country}/changes?after=${cursor}&limit=1000`)).body) as { changes: { id: string; kind: string }[]; next: string };
      cursor = page.next;
      if (page.changes.some((c) => c.id === String(listingId) && c.kind === (suppress ? 'suppressed' : 'unsuppressed'))) break;
      await sleep(2);
    }
    lags.push(performance.now() - committed);
  }
  return lags;
}

await exportThroughApi(false); // warm-up: caches and JIT
const plain = await exportThroughApi(false);
const gzipped = await exportThroughApi(true);
const raw = await rawCopy();
const listingId = Number((await db.query('select id from listings where country = $1 and deleted_at is null order by id limit 1', [country])).rows[0].id);
const lags = await feedLags(listingId);
const idleRss = memoryMb(api.pid!).rss;
await service.stop();

const rate = (n: number, s: number) => Math.round(n / s).toLocaleString('en');
const mb = (bytes: number) => (bytes / 2 ** 20).toFixed(1);
const section = `${await machineDescription()}
Data set: the ${mode.name} one (${plain.listings.toLocaleString('en')} live listings in \`${country}\`). Export: \`GET /${country}/listings/export?scope=all\`
as an admin, read as fast as the client can; raw: \`COPY (select row_to_json(l) from listings …) TO STDOUT\` through psql, the
listing rows alone (no sub-objects, categories or rendering), the floor under any export.

| Run | listings | body MB | seconds | listings/s | API max RSS MB |
|---|---|---|---|---|---|
| export, plain | ${plain.listings} | ${mb(plain.bytes)} | ${plain.seconds.toFixed(2)} | ${rate(plain.listings, plain.seconds)} | ${plain.maxRssMb.toFixed(0)} |
| export, gzip | ${gzipped.listings} | ${mb(gzipped.bytes)} | ${gzipped.seconds.toFixed(2)} | ${rate(gzipped.listings, gzipped.seconds)} | ${gzipped.maxRssMb.toFixed(0)} |
| raw COPY | ${raw.rows} | ${mb(raw.bytes)} | ${raw.seconds.toFixed(2)} | ${rate(raw.rows, raw.seconds)} | — |

API RSS after the runs: ${idleRss.toFixed(0)} MB. Feed lag (a suppress/unsuppress answered, then the feed polled every 2 ms
until the change is in it; ${LAG_SAMPLES} writes): p50 ${percentile(lags, 50).toFixed(1)} ms, p99 ${percentile(lags, 99).toFixed(1)} ms,
max ${Math.max(...lags).toFixed(1)} ms (contract: within 1 s).

Reproduce: \`npm run bench:sync${mode === FULL ? ' -- --full' : ''}\`
`;
writeResults('bench:sync', `sync, ${mode.name}`, section);
console.log(section);
process.exit(0);

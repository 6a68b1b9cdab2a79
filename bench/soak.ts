// Soak: a mix of reads, searches and writes at 70 % of the most the same mix reaches,
// for 10 minutes, against the real API and indexer on the quick data set. Per minute: throughput,
// p50/p99, errors, memory of both processes and the outbox backlog. Writes a section of
// bench/RESULTS.md.
//   npm run bench:soak                  10 minutes
//   npm run bench:soak -- --minutes 2   a shorter look
import { COUNTRY as country, QUICK, apiUrl, benchRequests, load, machineDescription, outboxBacklog, sleep, startBenchService, type Request } from './service.js';
import { writeResults } from './results-file.js';
import { memoryMb } from './proc.js';

const minutesArg = process.argv.indexOf('--minutes');
const MINUTES = minutesArg > 0 ? Number(process.argv[minutesArg + 1]) : 10;
const LOAD_SHARE = 0.7;

const service = await startBenchService(QUICK);
const { auth, api, indexer, db } = service;
const { listingId, searches, createBody } = await benchRequests(db);

// Every connection cycles through the mix: a read by id, six searches, a category lookup, a create.
const mix: Request[] = [
  { path: `/${country}/listings/${listingId}` },
  ...searches.map((s) => ({ path: `/${country}/listings?${s.path}` })),
  { path: `/${country}/categories?name=*restaurant*` },
  { method: 'POST', path: `/${country}/listings`, body: createBody },
];
const run = (seconds: number, overallRate?: number) => load({ url: apiUrl(''), headers: auth, requests: mix, seconds, ...(overallRate ? { overallRate } : {}) });
const backlog = () => outboxBacklog(db);

await run(10); // warm-up
const max = await run(30);
const rate = Math.round(max.rps * LOAD_SHARE);
console.log(`maximum ${max.rps.toFixed(0)} req/s; soaking at ${rate} req/s for ${MINUTES} min`);

interface Minute {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  apiRss: number;
  indexerRss: number;
  backlog: number;
}
const minutes: Minute[] = [];
for (let m = 1; m <= MINUTES; m++) {
  const r = await run(60, rate);
  minutes.push({ rps: r.rps, p50: r.p50, p99: r.p99, errors: r.errors, apiRss: memoryMb(api.pid!).rss, indexerRss: memoryMb(indexer.pid!).rss, backlog: await backlog() });
  console.log(`minute ${m}: ${JSON.stringify(minutes.at(-1))}`);
}
// Every write of the soak reaches the index: the outbox drains once the load stops.
let drainedAfter = 0;
while ((await backlog()) > 0 && drainedAfter < 120) {
  await sleep(1000);
  drainedAfter++;
}
const finalBacklog = await backlog();
const peaks = { api: memoryMb(api.pid!).peak, indexer: memoryMb(indexer.pid!).peak };
await service.stop();

const first = minutes[0]!;
const last = minutes.at(-1)!;
const errors = minutes.reduce((n, m) => n + m.errors, 0);
const p99s = minutes.map((m) => m.p99);
const growth = (a: number, b: number) => `${(((b - a) / a) * 100).toFixed(1)} %`;
const section = `${await machineDescription()}
Data set: the quick one (${QUICK.listings.toLocaleString('en')} listings in \`${country}\`, growing by the soak's creates). Mix per
connection (10 connections): GET by id, the six searches of the benchmark, categories \`*restaurant*\`, POST create.
The mix reached ${max.rps.toFixed(0)} req/s at most (30 s, p99 ${max.p99} ms); the soak ran ${MINUTES} min at ${rate} req/s (${LOAD_SHARE * 100} %).

| Minute | req/s | p50 ms | p99 ms | errors | API RSS MB | indexer RSS MB | outbox backlog |
|---|---|---|---|---|---|---|---|
${minutes.map((m, i) => `| ${i + 1} | ${m.rps.toFixed(0)} | ${m.p50} | ${m.p99} | ${m.errors} | ${m.apiRss.toFixed(0)} | ${m.indexerRss.toFixed(0)} | ${m.backlog} |`).join('\n')}

| Target | Result |
|---|---|
| zero errors | ${errors} errors in ${minutes.reduce((n, m) => n + Math.round(m.rps * 60), 0).toLocaleString('en')} requests |
| p99 stable | p99 from ${Math.min(...p99s)} to ${Math.max(...p99s)} ms; first minute ${first.p99} ms, last ${last.p99} ms |
| RSS growth < 10 % (minute 1 → minute ${MINUTES}) | API ${growth(first.apiRss, last.apiRss)} (${first.apiRss.toFixed(0)} → ${last.apiRss.toFixed(0)} MB, peak ${peaks.api.toFixed(0)}); indexer ${growth(first.indexerRss, last.indexerRss)} (${first.indexerRss.toFixed(0)} → ${last.indexerRss.toFixed(0)} MB, peak ${peaks.indexer.toFixed(0)}) |
| every write indexed | outbox ${finalBacklog === 0 ? `drained ${drainedAfter} s after the load stopped` : `still ${finalBacklog} events behind after 120 s`} |

Reproduce: \`npm run bench:soak\`
`;
writeResults('bench:soak', 'soak', section);
console.log(section);
process.exit(0);

// The write path alone, repeated so that one run's luck shows against the others:
//   npm run bench:writes [-- --runs 4 --seconds 15]     200 000 listings (the request-path data set)
// First creates (issue 18: POST create ≥ 300/s at ten connections, every write searchable within
// 2 s p99), then whole-listing updates (PUT) at ten connections over listings the bench partner
// created, as a partner's sync sends them. A first run of each warms the API, the indexer and
// PostgreSQL up and is dropped: on a fresh service it ran at half the rate of the ones after it.
// Each run reports the write rate, its latencies, and the CPU each process of the stack spent per
// write; a create run also each write's time until a search finds it, an update run the time the
// indexer took to apply the last of its versions after it.
import { Client } from '@opensearch-project/opensearch';
import { createOwnListings, updateRotation } from './own-listing-writes.js';
import {
  apiUrl, benchRequests, load, machineDescription, measureCreates, OPENSEARCH, outboxBacklog, PATH, sleep, startBenchService, withCpuPerWrite, type BenchService,
} from './service.js';
import { writeResults } from './results-file.js';

const argument = (name: string, fallback: number) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
};
const runs = argument('--runs', 4);
const seconds = argument('--seconds', 15);
const CONNECTIONS = 10;
/** The listings the updates go round: enough that ten writers seldom wait on each other's row lock. */
const UPDATED_LISTINGS = 200;

/** Seconds until the indexer has applied every event the API wrote (the outbox is empty); at most a minute. */
async function drainSeconds(service: BenchService): Promise<number> {
  const started = Date.now();
  while ((await outboxBacklog(service.db)) > 0 && Date.now() - started < 60_000) await sleep(50);
  return (Date.now() - started) / 1000;
}

/**
 * PUT updates of `ids` in turn (updateRotation) for `seconds`, then the drain; each process's CPU
 * over both, per update answered 200 (the indexer's and OpenSearch's work on the last updates
 * included).
 */
async function measureUpdates(service: BenchService, ids: string[], listing: string) {
  const { result: { updates, drained }, ...cpu } = await withCpuPerWrite(service, async () => {
    const updates = await load({ url: apiUrl('/'), headers: service.auth, requests: [updateRotation(ids, listing)], seconds, connections: CONNECTIONS });
    return { updates, drained: await drainSeconds(service) };
  }, ({ updates }) => updates.requests - updates.errors);
  return { updates, drained, ...cpu };
}

const service = await startBenchService(PATH);
const { createBody } = await benchRequests(service.db);
const os = new Client({ node: OPENSEARCH });

const measure = () => measureCreates(service, { os, body: createBody, seconds, connections: CONNECTIONS });
await measure(); // warm-up, dropped
const results = [];
for (let run = 0; run < runs; run++) {
  await sleep(2000); // the indexer drains the last run's tail
  results.push(await measure());
}

const ownIds = await createOwnListings(service.auth, createBody, UPDATED_LISTINGS);
await drainSeconds(service); // their index jobs do not compete with the updates
await measureUpdates(service, ownIds, createBody); // warm-up, dropped
const updateResults = [];
for (let run = 0; run < runs; run++) updateResults.push(await measureUpdates(service, ownIds, createBody));
await service.stop();
await os.close();

const processes = results[0]!.cpuMsPerWrite.map(([name]) => name);
const cpuCells = (cpuMsPerWrite: readonly (readonly [string, number])[]) =>
  `${cpuMsPerWrite.map(([, ms]) => ms.toFixed(2)).join(' | ')} | ${cpuMsPerWrite.reduce((sum, [, ms]) => sum + ms, 0).toFixed(2)}`;
const rows = results.map(({ writes, cpuMsPerWrite, machineBusy }, i) =>
  `| ${i + 1} | ${writes.writesPerSecond.toFixed(0)} | ${writes.createPct(50).toFixed(1)} / ${writes.createPct(99).toFixed(1)} `
    + `| ${writes.pct(50)} / ${writes.pct(99)} | ${writes.errors} / ${writes.unseen} | ${cpuCells(cpuMsPerWrite)} | ${(machineBusy * 100).toFixed(0)} % |`);
const updateRows = updateResults.map(({ updates, cpuMsPerWrite, machineBusy, drained }, i) =>
  `| ${i + 1} | ${updates.rps.toFixed(0)} | ${updates.p50} / ${updates.p99} | ${drained.toFixed(1)} | ${updates.errors} | ${cpuCells(cpuMsPerWrite)} | ${(machineBusy * 100).toFixed(0)} % |`);
const updateRates = updateResults.map((r) => r.updates.rps);
const rates = results.map((r) => r.writes.writesPerSecond);
const mean = rates.reduce((a, b) => a + b, 0) / rates.length;

const section = `${await machineDescription()}
Data set: ${service.listings.toLocaleString('en')} listings. ${runs} runs of ${seconds} s, ${CONNECTIONS} writers creating back to back,
after a dropped warm-up run. Creates per second ${Math.min(...rates).toFixed(0)}–${Math.max(...rates).toFixed(0)}, mean ${mean.toFixed(0)} (target ≥ 300/s);
every write's time until a search on OpenSearch finds it (target p99 ≤ 2 000 ms). CPU: ms of each process's CPU per create.

| Run | creates/s | create ms p50 / p99 | searchable ms p50 / p99 | errors / never seen | ${processes.join(' | ')} | all | machine busy |
|---|---|---|---|---|${processes.map(() => '---|').join('')}---|---|
${rows.join('\n')}

Updates: ${runs} runs of ${seconds} s, ${CONNECTIONS} writers sending \`PUT /:country/listings/:id\` back to back over ${UPDATED_LISTINGS} listings the
bench partner created, after a dropped warm-up run: updates per second ${Math.min(...updateRates).toFixed(0)}–${Math.max(...updateRates).toFixed(0)}.
Drained: seconds from the run's end until the indexer had applied every version it wrote; the CPU columns include the drain.

| Run | updates/s | update ms p50 / p99 | drained s | errors | ${processes.join(' | ')} | all | machine busy |
|---|---|---|---|---|${processes.map(() => '---|').join('')}---|---|
${updateRows.join('\n')}

Reproduce: \`npm run bench:writes\`
`;
writeResults('bench:writes', 'write path', section);
console.log(section);
process.exit(0);

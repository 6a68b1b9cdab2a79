// The write path alone, repeated so that one run's luck shows against the others:
//   npm run bench:writes [-- --runs 4 --seconds 15]     200 000 listings (the request-path data set)
//   npm run bench:writes -- --label edits --only updates   an A/B half: its own section of RESULTS.md
//   npm run bench:writes -- --listings 2000 --runs 1 --seconds 3   a smoke run on a small data set of its own
// First creates (issue 18: POST create ≥ 300/s at ten connections, every write searchable within
// 2 s p99), then whole-listing updates (PUT) at ten connections over listings the bench partner
// created, as a partner's sync sends them, then the same PUTs with bodies that change nothing
// (docs/contract.md §20: they commit nothing). A first run of each warms the API, the indexer and
// PostgreSQL up and is dropped: on a fresh service it ran at half the rate of the ones after it.
// Each run reports the write rate, its latencies, and the CPU each process of the stack spent per
// write; a create run also each write's time until a search finds it, an update run the time the
// indexer took to apply the last of its versions after it. For an A/B comparison (the CPU of an
// update with its history recorded against the code before), run both trees with a --label each.
import { Client } from '@opensearch-project/opensearch';
import { createOwnListings, unchangedRotation, updateRotation } from './own-listing-writes.js';
import {
  apiUrl,
  benchRequests,
  load,
  machineDescription,
  measureCreates,
  OPENSEARCH,
  outboxBacklog,
  PATH,
  sleep,
  startBenchService,
  withCpuPerWrite,
  type BenchService,
  type Mode,
  type Request,
} from './service.js';
import { writeResults } from './results-file.js';

const option = (name: string) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : undefined;
};
const argument = (name: string, fallback: number) => Number(option(name) ?? fallback);
const runs = argument('--runs', 4);
const seconds = argument('--seconds', 15);
/** `updates`: leave the creates out (an A/B of the update path). */
const only = option('--only');
/** Names the RESULTS.md section, so that the two halves of an A/B comparison stand side by side. */
const label = option('--label');
const size = argument('--listings', PATH.listings);
// A data set of another size lives in a database and indices of its own, never mixed with the path's.
const mode: Mode = size === PATH.listings ? PATH : { ...PATH, name: `write path, ${size} listings`, listings: size, db: `listings_bench_writes_${size}`, prefix: `benchwrites${size}-` };
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
 * PUTs of `ids` in turn (`rotation`: updateRotation, unchangedRotation) for `seconds`, then the
 * drain; each process's CPU over both, per update answered 200 (the indexer's and OpenSearch's
 * work on the last updates included).
 */
async function measureUpdates(service: BenchService, rotation: () => Request) {
  const {
    result: { updates, drained },
    ...cpu
  } = await withCpuPerWrite(
    service,
    async () => {
      const updates = await load({ url: apiUrl('/'), headers: service.auth, requests: [rotation()], seconds, connections: CONNECTIONS });
      return { updates, drained: await drainSeconds(service) };
    },
    ({ updates }) => updates.requests - updates.errors,
  );
  return { updates, drained, ...cpu };
}

const service = await startBenchService(mode);
const { createBody } = await benchRequests(service.db);
const os = new Client({ node: OPENSEARCH });

const measure = () => measureCreates(service, { os, body: createBody, seconds, connections: CONNECTIONS });
const results = [];
if (only !== 'updates') {
  await measure(); // warm-up, dropped
  for (let run = 0; run < runs; run++) {
    await sleep(2000); // the indexer drains the last run's tail
    results.push(await measure());
  }
}

const ownIds = await createOwnListings(service.auth, createBody, UPDATED_LISTINGS);
await drainSeconds(service); // their index jobs do not compete with the updates
/** A dropped warm-up run, then `runs` measured ones. */
async function measureRuns(rotation: () => Request) {
  await measureUpdates(service, rotation);
  const measured = [];
  for (let run = 0; run < runs; run++) measured.push(await measureUpdates(service, rotation));
  return measured;
}
const updateResults = await measureRuns(() => updateRotation(ownIds, createBody));
// Each listing PUT back as it was created: the first pass writes that content, every later one changes nothing.
const unchangedResults = await measureRuns(() => unchangedRotation(ownIds, createBody));
await service.stop();
await os.close();

const processes = updateResults[0]!.cpuMsPerWrite.map(([name]) => name);
const cpuCells = (cpuMsPerWrite: readonly (readonly [string, number])[]) =>
  `${cpuMsPerWrite.map(([, ms]) => ms.toFixed(2)).join(' | ')} | ${cpuMsPerWrite.reduce((sum, [, ms]) => sum + ms, 0).toFixed(2)}`;
const rows = results.map(
  ({ writes, cpuMsPerWrite, machineBusy }, i) =>
    `| ${i + 1} | ${writes.writesPerSecond.toFixed(0)} | ${writes.createPct(50).toFixed(1)} / ${writes.createPct(99).toFixed(1)} ` +
    `| ${writes.pct(50)} / ${writes.pct(99)} | ${writes.errors} / ${writes.unseen} | ${cpuCells(cpuMsPerWrite)} | ${(machineBusy * 100).toFixed(0)} % |`,
);
const updateRowsOf = (measured: typeof updateResults) =>
  measured.map(
    ({ updates, cpuMsPerWrite, machineBusy, drained }, i) =>
      `| ${i + 1} | ${updates.rps.toFixed(0)} | ${updates.p50} / ${updates.p99} | ${drained.toFixed(1)} | ${updates.errors} | ${cpuCells(cpuMsPerWrite)} | ${(machineBusy * 100).toFixed(0)} % |`,
  );
const ratesOf = (measured: typeof updateResults) => measured.map((r) => r.updates.rps);
const span = (values: number[]) => `${Math.min(...values).toFixed(0)}–${Math.max(...values).toFixed(0)}`;
const updateTable = (measured: typeof updateResults) => `| Run | updates/s | update ms p50 / p99 | drained s | errors | ${processes.join(' | ')} | all | machine busy |
|---|---|---|---|---|${processes.map(() => '---|').join('')}---|---|
${updateRowsOf(measured).join('\n')}`;
const rates = results.map((r) => r.writes.writesPerSecond);
const mean = rates.reduce((a, b) => a + b, 0) / rates.length;

const creates =
  results.length === 0
    ? 'Creates: not measured (--only updates).'
    : `${runs} runs of ${seconds} s, ${CONNECTIONS} writers creating back to back,
after a dropped warm-up run. Creates per second ${span(rates)}, mean ${mean.toFixed(0)} (target ≥ 300/s);
every write's time until a search on OpenSearch finds it (target p99 ≤ 2 000 ms). CPU: ms of each process's CPU per create.

| Run | creates/s | create ms p50 / p99 | searchable ms p50 / p99 | errors / never seen | ${processes.join(' | ')} | all | machine busy |
|---|---|---|---|---|${processes.map(() => '---|').join('')}---|---|
${rows.join('\n')}`;
const title = `${label ? `${label}: ` : ''}write path`;
const body = `${await machineDescription()}
Data set: ${service.listings.toLocaleString('en')} listings. ${creates}

Updates: ${runs} runs of ${seconds} s, ${CONNECTIONS} writers sending \`PUT /:country/listings/:id\` back to back over ${UPDATED_LISTINGS} listings the
bench partner created, each write a new name, after a dropped warm-up run: updates per second ${span(ratesOf(updateResults))}.
Drained: seconds from the run's end until the indexer had applied every version it wrote; the CPU columns include the drain.

${updateTable(updateResults)}

Unchanged: the same PUTs with the body each listing was created with, which changes nothing and commits nothing (docs/contract.md §20),
after a dropped warm-up run: PUTs per second ${span(ratesOf(unchangedResults))}.

${updateTable(unchangedResults)}

Reproduce: \`npm run bench:writes${process.argv.slice(2).length ? ` -- ${process.argv.slice(2).join(' ')}` : ''}\`
`;
// A labelled run (an A/B pair) keeps a section of its own beside the plain run's.
writeResults(label ? `bench:writes:${label}` : 'bench:writes', title, body);
console.log(body);
process.exit(0);

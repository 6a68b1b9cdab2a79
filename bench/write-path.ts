// The create path alone (issue 18: POST create ≥ 300/s at ten connections, every write searchable
// within 2 s p99), repeated so that one run's luck shows against the others:
//   npm run bench:writes [-- --runs 4 --seconds 15]     200 000 listings (the request-path data set)
// A first run warms the API, the indexer and PostgreSQL up and is dropped: on a fresh service it
// ran at half the rate of the ones after it. Each run reports the create rate, its latencies, each
// write's time until a search finds it, and the CPU each process of the stack spent per create.
import { Client } from '@opensearch-project/opensearch';
import { benchRequests, machineDescription, measureCreates, OPENSEARCH, PATH, sleep, startBenchService, writeResultsSection } from './service.js';

const argument = (name: string, fallback: number) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
};
const runs = argument('--runs', 4);
const seconds = argument('--seconds', 15);
const CONNECTIONS = 10;

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
await service.stop();
await os.close();

const processes = results[0]!.cpuMsPerWrite.map(([name]) => name);
const rows = results.map(({ writes, cpuMsPerWrite, machineBusy }, i) => {
  const cpu = cpuMsPerWrite.map(([, ms]) => ms.toFixed(2));
  const all = cpuMsPerWrite.reduce((sum, [, ms]) => sum + ms, 0);
  return `| ${i + 1} | ${writes.writesPerSecond.toFixed(0)} | ${writes.createPct(50).toFixed(1)} / ${writes.createPct(99).toFixed(1)} `
    + `| ${writes.pct(50)} / ${writes.pct(99)} | ${writes.errors} / ${writes.unseen} | ${cpu.join(' | ')} | ${all.toFixed(2)} | ${(machineBusy * 100).toFixed(0)} % |`;
});
const rates = results.map((r) => r.writes.writesPerSecond);
const mean = rates.reduce((a, b) => a + b, 0) / rates.length;

const section = `## write path — ${new Date().toISOString().slice(0, 16)}Z

${await machineDescription()}
Data set: ${service.listings.toLocaleString('en')} listings. ${runs} runs of ${seconds} s, ${CONNECTIONS} writers creating back to back,
after a dropped warm-up run. Creates per second ${Math.min(...rates).toFixed(0)}–${Math.max(...rates).toFixed(0)}, mean ${mean.toFixed(0)} (target ≥ 300/s);
every write's time until a search on OpenSearch finds it (target p99 ≤ 2 000 ms). CPU: ms of each process's CPU per create.

| Run | creates/s | create ms p50 / p99 | searchable ms p50 / p99 | errors / never seen | ${processes.join(' | ')} | all | machine busy |
|---|---|---|---|---|${processes.map(() => '---|').join('')}---|---|
${rows.join('\n')}

Reproduce: \`npm run bench:writes\`
`;
writeResultsSection('write path', section);
console.log(section);
process.exit(0);

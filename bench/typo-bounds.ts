// What the most expensive Solr-mode searches the typo bounds allow cost, beside an ordinary one
// (src/search/query/defaults.ts `typos`; docs/search.md "Bounds"; the texts: bench/worst-queries.ts):
//   npm run bench:typos                      1 000 000 listings (the full data set)
//   npm run bench:typos -- --quick           50 000 listings
//   npm run bench:typos -- --listings 2000   a smoke run on a small data set of its own (prints, writes nothing)
// Each search runs at ONE connection, raw on OpenSearch and through the API, in interleaved rounds;
// latencies are timed here per request, the API's CPU per request read from /proc.
import http from 'node:http';
import { Client } from '@opensearch-project/opensearch';
import type { ListingSearchQuery } from '../src/schemas/search.js';
import { cpuSeconds } from './proc.js';
import { createSearchBody } from './search-body.js';
import { apiUrl, COUNTRY as country, FULL, machineDescription, OPENSEARCH, percentile, QUICK, send, startBenchService, type Mode } from './service.js';
import { writeResults } from './results-file.js';
import { countTerms, ORDINARY, WORST_TEXTS } from './worst-queries.js';

const argument = (name: string) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? Number(process.argv[at + 1]) : undefined;
};
const smokeListings = argument('--listings');
const mode: Mode = smokeListings ? { name: 'smoke', listings: smokeListings, seconds: 2, db: 'listings_bench_typos', prefix: 'benchtypos-' } : process.argv.includes('--quick') ? QUICK : FULL;
const seconds = argument('--seconds') ?? mode.seconds;
const rounds = 3;

const service = await startBenchService(mode);
const { auth, alias, api } = service;
const os = new Client({ node: OPENSEARCH });
const searchBody = createSearchBody({ opensearch: os, prefix: mode.prefix, country });
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

interface Round {
  latencies: number[];
  errors: number;
  cpuSeconds: number;
}

/** Back to back for `runSeconds` after a warm-up; latencies in ms, and the API's CPU meanwhile when `cpuPid` is given. */
async function round(runSeconds: number, url: string, method: 'GET' | 'POST', body?: string, headers?: Record<string, string>, cpuPid?: number): Promise<Round> {
  for (let i = 0; i < 20; i++) await send(url, method, body, headers, agent);
  const latencies: number[] = [];
  let errors = 0;
  const cpuBefore = cpuPid ? cpuSeconds(cpuPid) : 0;
  const until = performance.now() + runSeconds * 1000;
  while (performance.now() < until) {
    const started = performance.now();
    const status = await send(url, method, body, headers, agent);
    latencies.push(performance.now() - started);
    if (status >= 400) errors++;
  }
  return { latencies, errors, cpuSeconds: cpuPid ? cpuSeconds(cpuPid) - cpuBefore : 0 };
}

const pooled = (taken: Round[]) => {
  const latencies = taken.flatMap((r) => r.latencies);
  return {
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    errors: taken.reduce((n, r) => n + r.errors, 0),
    cpuUs: (taken.reduce((n, r) => n + r.cpuSeconds, 0) * 1e6) / latencies.length,
  };
};

const scenarios: { name: string; what: string; where: string }[] = [
  { name: 'ordinary: a name with a typo and a place', ...ORDINARY },
  ...Object.entries(WORST_TEXTS).map(([name, text]) => ({ name: `worst allowed: ${name}`, what: text, where: text })),
];
const rawUrl = `${OPENSEARCH}/${alias}/_search`;
const results: { name: string; terms: number; bytes: number; raw: ReturnType<typeof pooled>; viaApi: ReturnType<typeof pooled> }[] = [];
for (const scenario of scenarios) {
  const query: ListingSearchQuery = { solr: true, what: scenario.what, where: scenario.where };
  const body = await searchBody(query);
  const path = `/${country}/listings?${new URLSearchParams({ solr: 'true', what: scenario.what, where: scenario.where })}`;
  const raw: Round[] = [];
  const viaApi: Round[] = [];
  for (let r = 0; r < rounds; r++) {
    raw.push(await round(seconds / rounds, rawUrl, 'POST', body));
    viaApi.push(await round(seconds / rounds, apiUrl(path), 'GET', undefined, auth, api.pid));
  }
  results.push({ name: scenario.name, terms: countTerms(JSON.parse(body)), bytes: body.length, raw: pooled(raw), viaApi: pooled(viaApi) });
}
await service.stop();
await os.close();

const ms = (v: number) => v.toFixed(2);
const ordinary = results[0]!;
const rows = results.map(
  (r) =>
    `| ${r.name} | ${r.terms} | ${(r.bytes / 1024).toFixed(1)} | ${ms(r.raw.p50)} / ${ms(r.raw.p99)} | ${ms(r.viaApi.p50)} / ${ms(r.viaApi.p99)} ` +
    `| ${r.viaApi.cpuUs.toFixed(0)} | ${(r.viaApi.p50 / ordinary.viaApi.p50).toFixed(2)} | ${r.raw.errors + r.viaApi.errors} |`,
);
const section = `${await machineDescription()}
Data set: ${service.listings.toLocaleString('en')} listings in \`${country}\`. One connection, ${seconds} s per search and way in ${rounds}
interleaved rounds (raw, API), each after 20 warm-up requests; latencies in ms (p50 / p99). \`what\` and \`where\` both carry the
text named (bench/worst-queries.ts); terms and KiB are those of the body sent to OpenSearch.

| Search | terms | KiB | raw p50 / p99 | API p50 / p99 | API CPU µs / request | API p50 ÷ ordinary | errors |
|---|---|---|---|---|---|---|---|
${rows.join('\n')}

Reproduce: \`npm run bench:typos${mode === QUICK ? ' -- --quick' : ''}\`
`;
if (mode === FULL || mode === QUICK) writeResults('bench:typos', `typo bounds, ${mode.name}`, section);
console.log(section);
process.exit(0);

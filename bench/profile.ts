// Where the API's CPU goes, per kind of request (bench/README.md):
//   npm run bench:profile [-- --seconds 10] [-- --search NAME]... [-- --create] [-- --analytics]   the quick data set (50 000 listings)
// NAME is a search scenario of bench/service.ts (benchRequests, open-hours ones included), e.g. "solr: what + where"; several
// may be given; `--create` profiles POST create (the bench listing of benchRequests). With neither,
// GET by id, the phone search and "solr: what + where".
// For each scenario the API is started alone under V8's sampling profiler (--cpu-prof), loaded at
// one connection, and stopped; the profile's busy time is then summed by package and by function
// (self time: where the CPU was, not who called it). Prints the tables; the .cpuprofile files stay
// in .bench-profiles/ for Chrome DevTools. Not a figure for RESULTS by itself: it says where to look.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { processNodeFlags } from '../src/platform/project-paths.js';
import { apiUrl, benchRequests, load, QUICK, STATUS_TERMS, startBenchService } from './service.js';

const secondsArg = process.argv.indexOf('--seconds');
const seconds = secondsArg > 0 ? Number(process.argv[secondsArg + 1]) : 10;
const PROFILES = '.bench-profiles';
/** The searches named with --search (a name, or a name's start before its example, e.g. "solr: what with a typo"). */
const named = process.argv.flatMap((arg, i) => (process.argv[i - 1] === '--search' ? [arg] : []));
const withCreate = process.argv.includes('--create');
const withAnalytics = process.argv.includes('--analytics');
const defaults = named.length === 0 && !withCreate && !withAnalytics;

interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
  /** Microseconds on the monotonic clock, the one process.hrtime reads. */
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** Now on the monotonic clock V8's profiler stamps its samples with, in microseconds. */
const monotonicUs = () => Number(process.hrtime.bigint() / 1000n);

/** node_modules package, Node core, or the application's own file a frame belongs to. */
function ownerOf(url: string): string {
  if (!url) return '(native)';
  const pkg = /node_modules\/((@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1]!;
  if (url.startsWith('node:')) return 'node core';
  const own = url.split('/dist/')[1];
  return own ? `app ${own}` : url;
}

/**
 * Busy self time of a profile by owner and by function, as shares of the busy time; with `window`
 * (monotonic µs), of the samples taken within it only: the measured load, without the start-up's
 * module loading and compiling or the warm-up.
 */
export function summarise(profile: CpuProfile, window?: { fromUs: number; toUs: number }): { busyMs: number; byOwner: [string, number][]; byFunction: [string, number][] } {
  const frames = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
  const byOwner = new Map<string, number>();
  const byFunction = new Map<string, number>();
  let busy = 0;
  let at = profile.startTime;
  profile.samples.forEach((id, i) => {
    const frame = frames.get(id)!;
    const us = profile.timeDeltas[i] ?? 0;
    at += us;
    if (window && (at < window.fromUs || at > window.toUs)) return;
    if (frame.functionName === '(idle)' || frame.functionName === '(program)') return;
    busy += us;
    const owner = frame.functionName.startsWith('(') ? frame.functionName : ownerOf(frame.url);
    byOwner.set(owner, (byOwner.get(owner) ?? 0) + us);
    const name = `${frame.functionName || '(anonymous)'}  ${ownerOf(frame.url)}:${frame.lineNumber + 1}`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + us);
  });
  const shares = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1]).map(([k, us]): [string, number] => [k, us / busy]);
  return { busyMs: busy / 1000, byOwner: shares(byOwner), byFunction: shares(byFunction) };
}

const service = await startBenchService({ ...QUICK, seconds });
try {
  await profileEach(service);
} finally {
  await service.stop();
}

async function profileEach(service: Awaited<ReturnType<typeof startBenchService>>): Promise<void> {
  const { searches: plain, openSearches, listingId, createBody } = await benchRequests(service.db);
  const searches = [...plain, ...openSearches];
  // The scenarios run on an API of their own, started under the profiler.
  service.api.kill('SIGTERM');
  await once(service.api, 'exit');

  const scenarios: { name: string; path: string; method?: 'POST'; body?: string }[] = [
    ...(defaults ? [{ name: 'GET listing by id', path: `/de/listings/${listingId}` }] : []),
    ...(defaults ? ['filtered: phone', 'solr: what + where'] : named).map((name) => {
      const search = searches.find((s) => s.name === name || s.name.startsWith(`${name} (`));
      if (!search) throw new Error(`no bench search named "${name}"`);
      return { name, path: `/de/listings?${search.path}` };
    }),
    ...(withCreate ? [{ name: 'POST create', path: '/de/listings', method: 'POST' as const, body: createBody }] : []),
    ...(withAnalytics ? [{ name: 'POST analytics size 0', path: '/analytics/listings-de/_search', method: 'POST' as const, body: JSON.stringify(STATUS_TERMS) }] : []),
  ];

  rmSync(PROFILES, { recursive: true, force: true });
  for (const scenario of scenarios) {
    const dir = path.join(PROFILES, scenario.name.replace(/[^a-z0-9]+/gi, '-'));
    mkdirSync(dir, { recursive: true });
    const api = spawn(process.execPath, [...processNodeFlags(), '--cpu-prof', '--cpu-prof-dir', dir, 'dist/src/server.js'], { env: service.env, stdio: ['ignore', 'inherit', 'inherit'] });
    for (
      let i = 0;
      i < 100 &&
      !(await fetch(apiUrl('/readyz')).then(
        (r) => r.ok,
        () => false,
      ));
      i++
    )
      await new Promise((r) => setTimeout(r, 300));
    const request = { url: apiUrl(scenario.path), method: scenario.method, body: scenario.body, headers: service.auth, connections: 1 };
    await load({ ...request, seconds: 2 }); // warm-up: JIT, caches
    const fromUs = monotonicUs();
    const measured = await load({ ...request, seconds });
    const toUs = monotonicUs();
    api.kill('SIGTERM');
    await once(api, 'exit');
    const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
    if (!file) throw new Error(`no profile written in ${dir}`);
    const { busyMs, byOwner, byFunction } = summarise(JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as CpuProfile, { fromUs, toUs });
    console.log(
      `\n## ${scenario.name}: ${measured.requests} requests, ${measured.errors} errors, ${Math.round((busyMs * 1000) / measured.requests)} µs of sampled busy JS/GC time per request (the measured load only)`,
    );
    const table = (rows: [string, number][], n: number) =>
      rows.slice(0, n).forEach(([k, share]) => {
        console.log(`${(share * 100).toFixed(1).padStart(5)} %  ${k}`);
      });
    console.log('-- by owner');
    table(byOwner, 20);
    console.log('-- by function');
    table(byFunction, 30);
  }
}

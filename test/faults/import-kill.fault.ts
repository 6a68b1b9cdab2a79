// Fault injection for bulk imports (docs/contract.md §19): a 20 000-item job while its runner (the
// indexer process) is killed with SIGKILL twice and restarted. The job must end `done` with every
// line recorded once, one change in the feed per created listing, and PostgreSQL and OpenSearch in
// agreement. Run with `npm run test:faults`; IMPORT_FAULT_ITEMS sets the job's size.
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import t from 'tap';
import { followImport, importResults, readImport, submitImport, type ImportTarget } from '../../src/cli/import-client.js';
import type { ImportJob } from '../../src/cli/import-job.js';
import { build, listingInput, runId } from '../helper.js';
import { startApiProcess, startIndexerProcess, type Proc } from '../processes.js';
import { assertConverged, type Expected } from './harness.js';

const ITEMS = Number(process.env.IMPORT_FAULT_ITEMS ?? 20_000);
const API_PORT = 3310;
const INDEXER_PORT = 3311;
const country = 'de';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const env = { QUEUE_PREFIX: `import-kill-${randomUUID().slice(0, 6)}`, RELAY_INTERVAL_MS: '500', RELAY_GRACE_MS: '1000', RATE_LIMIT_MAX: '100000000' };
const { deps, partner } = await build(t, { config: { QUEUE_PREFIX: env.QUEUE_PREFIX } });
const { id: partnerId, auth } = await partner();

const started: Proc[] = [];
const tracked = (proc: Proc) => {
  started.push(proc);
  return proc;
};
const startIndexer = async () => tracked(await startIndexerProcess(INDEXER_PORT, env));
tracked(await startApiProcess(API_PORT, env));
let indexer = await startIndexer();
t.teardown(async () => {
  for (const proc of started) await proc.stop();
});

t.test('a job whose runner is killed twice ends done, with every line applied and recorded once', async (t) => {
  const names = Array.from({ length: ITEMS }, (_, i) => `Import ${runId} ${i}`);
  const lines = function* () {
    for (let i = 0; i < ITEMS; i++) yield `${JSON.stringify({ source_id: `kill-${runId}-${i}`, ...listingInput({ name: names[i]! }) })}\n`;
  };
  const target: ImportTarget = { api: `http://127.0.0.1:${API_PORT}`, country, auth };
  const { job: queued, url } = await submitImport(target, 'upsert', { body: Readable.from(lines()), gzip: false });
  t.equal(queued.status, 'queued');
  t.equal(queued.counts.lines, ITEMS, 'the job counts every line of the body');

  // The runner is killed when the job has processed 30 % and 65 % of its lines: mid-job, not
  // before it starts or after it ends, or the test would prove nothing.
  const killAt = [0.3, 0.65].map((share) => Math.floor(ITEMS * share));
  const killedAt: number[] = [];
  let job: ImportJob = queued;
  const deadline = Date.now() + 600_000;
  while (killAt.length && Date.now() < deadline) {
    job = await readImport(url, auth);
    if (job.status !== 'queued' && job.status !== 'running') break;
    if (job.counts.processed >= killAt[0]!) {
      killAt.shift();
      killedAt.push(job.counts.processed);
      await indexer.stop('SIGKILL');
      await sleep(1000);
      indexer = await startIndexer();
    }
    await sleep(100);
  }
  t.equal(killedAt.length, 2, `the runner was killed twice mid-job (after ${killedAt.join(' and ')} lines)`);
  job = await followImport(url, auth, job);

  t.equal(job.status, 'done', `the job ends done (${JSON.stringify(job.error ?? null)})`);
  t.same(job.counts, { lines: ITEMS, processed: ITEMS, created: ITEMS, updated: 0, unchanged: 0, deleted: 0, failed: 0 }, 'every line created one listing');

  const seen = new Map<number, number>();
  const ids = new Map<string, string>();
  let results = 0;
  for await (const text of importResults(url, auth)) {
    const result = JSON.parse(text) as { line: number; status: string; id?: string; source_id?: string };
    results++;
    seen.set(result.line, (seen.get(result.line) ?? 0) + 1);
    if (result.id) ids.set(result.id, names[result.line - 1]!);
  }
  t.equal(results, ITEMS, 'the results hold one line per line of the body');
  const wrongLines = Array.from({ length: ITEMS }, (_, i) => i + 1).filter((line) => seen.get(line) !== 1);
  t.same(wrongLines.slice(0, 20), [], `every line number 1..${ITEMS} is recorded exactly once (${wrongLines.length} are not)`);
  t.equal(ids.size, ITEMS, 'every line names a listing of its own');

  const {
    rows: [owned],
  } = await deps.database.pool.query<{ listings: number; mappings: number }>(
    `select (select count(*)::int from listings where created_by = $1) as listings,
            (select count(*)::int from mappings where partner_id = $1) as mappings`,
    [partnerId],
  );
  t.same(owned, { listings: ITEMS, mappings: ITEMS }, 'no line was applied twice: one listing and one mapping per line');

  const { rows: changes } = await deps.database.pool.query<{ listing_id: string; n: number; kinds: string[] }>(
    `select listing_id, count(*)::int as n, array_agg(kind) as kinds from listing_changes where listing_id = any($1::bigint[]) group by listing_id`,
    [[...ids.keys()]],
  );
  const notOnce = changes.filter((c) => c.n !== 1 || c.kinds[0] !== 'created');
  t.equal(changes.length, ITEMS, 'every created listing is in the change feed');
  t.same(notOnce.slice(0, 20), [], `the feed holds exactly one change, created, per listing (${notOnce.length} do not)`);

  const expected = new Map<string, Expected>([...ids].map(([id, name]) => [id, { deleted: false, suppressed: false, name }]));
  const { differences, wrong } = await assertConverged(deps, country, expected);
  t.same(differences, [], 'reconcile: PostgreSQL and OpenSearch agree on ids and versions');
  t.same(wrong.slice(0, 20), [], `every created listing is in the index as imported (${wrong.length} are not)`);
});

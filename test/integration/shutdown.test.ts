// Graceful shutdown of the real processes: on SIGTERM the API finishes in-flight requests and the
// indexer finishes or returns its jobs; both exit 0, and nothing is lost.
import t from 'tap';
import { build, config, eventually, indexedDocument, listingInput } from '../helper.js';
import { startProcess, waitHealthy } from '../processes.js';

const { app, deps, partner } = await build(t);
const { id: partnerId, auth } = await partner();

const start = (script: string, port: number, extra: Record<string, string> = {}) => startProcess(script, { PORT: String(port), INDEXER_PORT: String(port), ...extra });

t.test('the API answers its in-flight requests, then exits 0 on SIGTERM', async (t) => {
  const api = start('src/server.ts', 3210);
  await waitHealthy('http://127.0.0.1:3210/healthz');
  const inFlight = Array.from({ length: 20 }, () =>
    fetch('http://127.0.0.1:3210/de/listings', {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify(listingInput()),
    }).then(
      (r) => r.status,
      () => 'failed',
    ),
  );
  // SIGTERM once the API has taken the creates in (the first is committed), not after a fixed pause
  // that a loaded machine can outlast before it accepts any.
  await eventually(
    async () => {
      const { rowCount } = await deps.database.pool.query('select 1 from listings where created_by = $1 limit 1', [partnerId]);
      return rowCount ? true : undefined;
    },
    10_000,
    'the first in-flight create to be committed',
  );
  const code = await api.stop('SIGTERM');
  const statuses = await Promise.all(inFlight);
  t.equal(code, 0);
  t.ok(
    statuses.every((s) => s === 201 || s === 'failed'),
    'every request either completed or was never accepted',
  );
  t.ok(statuses.filter((s) => s === 201).length > 0, `${statuses.filter((s) => s === 201).length} in-flight creates answered 201`);
  t.notOk(
    await fetch('http://127.0.0.1:3210/healthz').then(
      () => true,
      () => false,
    ),
    'no longer listening',
  );
});

t.test('the indexer stops on SIGTERM without losing a job; a restarted one indexes the rest', async (t) => {
  const ids: string[] = [];
  for (let i = 0; i < 30; i++) ids.push((await app.inject({ method: 'POST', url: '/de/listings', headers: auth, payload: listingInput() })).json().id);
  const indexer = start('indexer/main.ts', 3211, { INDEXER_CONCURRENCY: '2' });
  await waitHealthy('http://127.0.0.1:3211/healthz');
  const code = await indexer.stop('SIGTERM');
  t.equal(code, 0, 'exit 0 after finishing its current jobs');
  const again = start('indexer/main.ts', 3211);
  t.teardown(() => again.stop());
  for (const id of ids) await eventually(() => indexedDocument(deps, 'de', id).then((d) => d ?? undefined), 15_000, `listing ${id} indexed`);
  t.pass(`all ${ids.length} listings indexed (${config.QUEUE_PREFIX})`);
});

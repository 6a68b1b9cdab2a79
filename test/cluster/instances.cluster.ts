// Two API instances and two indexers side by side on one database, one Redis and the cluster
// (npm run test:cluster): what one instance knows, the other honours, and the indexers share the
// work without indexing anything twice or out of order.
import { randomUUID } from 'node:crypto';
import t from 'tap';
import { hashApiKey } from '../../src/partners/api-keys.js';
import { keyCounterName } from '../../src/plugins/rate-limit.js';
import { assertNothingLost, writeStream } from '../faults/harness.js';
import { build, eventually, listingInput } from '../helper.js';
import { startApiProcess, startIndexerProcess, type Proc } from '../processes.js';
import { call, processEnv, sleep } from './cluster-env.js';

const WRITES = Number(process.env.CLUSTER_WRITES ?? 600);
const API_PORTS = [3410, 3411] as const;
const INDEXER_PORTS = [3412, 3413] as const;
const country = 'de';
const urls = API_PORTS.map((port) => `http://127.0.0.1:${port}`);

const env = processEnv('instances');
const { deps, partner } = await build(t, { config: { QUEUE_PREFIX: env.QUEUE_PREFIX! } });
const procs: Proc[] = await Promise.all([...API_PORTS.map((port) => startApiProcess(port, env)), ...INDEXER_PORTS.map((port) => startIndexerProcess(port, env))]);
t.teardown(async () => {
  await Promise.all(procs.map((p) => p.stop()));
});

/** POSTs a listing with `key`, retrying while the key is in progress on the other instance. */
async function postWithKey(baseUrl: string, auth: Record<string, string>, key: string, body: unknown) {
  for (;;) {
    const res = await call(baseUrl, 'POST', `/${country}/listings`, { ...auth, 'idempotency-key': key }, body);
    if (res.status !== 409 || !res.text.includes('state: in_progress')) return res;
    await sleep(200);
  }
}

const countByName = async (name: string) => (await deps.database.pool.query<{ n: number }>('select count(*)::int as n from listings where name = $1', [name])).rows[0]!.n;

t.test('an Idempotency-Key sent to one instance and then to the other creates one listing', async (t) => {
  const { auth } = await partner();
  const key = randomUUID();
  const body = listingInput({ name: `Zweifach ${randomUUID().slice(0, 8)}` });
  const first = await postWithKey(urls[0]!, auth, key, body);
  t.equal(first.status, 201);
  const again = await postWithKey(urls[1]!, auth, key, body);
  t.equal(again.status, 201, 'the other instance answers the first response again');
  t.equal(again.headers.get('idempotent-replayed'), 'true');
  t.equal(again.json().id, first.json().id);
  t.equal(await countByName(body.name), 1, 'one listing in PostgreSQL');
  const other = await postWithKey(urls[1]!, auth, key, { ...body, name: `${body.name} anders` });
  t.equal(other.status, 409, 'the same key with another body is refused on the other instance too');
});

t.test('the same Idempotency-Key sent to both instances at once creates one listing', async (t) => {
  const { auth } = await partner();
  const key = randomUUID();
  const body = listingInput({ name: `Gleichzeitig ${randomUUID().slice(0, 8)}` });
  const answers = await Promise.all(urls.map((url) => postWithKey(url, auth, key, body)));
  t.same(
    answers.map((a) => a.status),
    [201, 201],
  );
  t.equal(answers[0]!.json().id, answers[1]!.json().id, 'both answer the same listing');
  t.equal(answers.filter((a) => a.headers.get('idempotent-replayed') === 'true').length, 1, 'one created it, the other replayed it');
  t.equal(await countByName(body.name), 1, 'one listing in PostgreSQL');
});

t.test('the per-key limit counts the requests of both instances together', async (t) => {
  // Instances of their own with a small limit; a window longer than the test, which starts at
  // the key's first request, so no window ends in between.
  const limited = { ...env, RATE_LIMIT_MAX: '10', RATE_LIMIT_WINDOW_MS: '600000' };
  const ports = [3414, 3415];
  const pair = await Promise.all(ports.map((port) => startApiProcess(port, limited)));
  t.teardown(() => Promise.all(pair.map((p) => p.stop())));
  const [a, b] = ports.map((port) => `http://127.0.0.1:${port}`) as [string, string];
  const { auth } = await partner();
  // Each instance adds its hits to the shared count 50 ms after counting them and learns the total
  // from the answer; a request sent once Redis counts every request before it sees them all.
  // (Faster ones may pass the limit by what one instance takes in before its next sync: docs/contract.md
  // §11.) The count is read in Redis, as a request would add a hit.
  const counterKey = keyCounterName(env.QUEUE_PREFIX!, hashApiKey(auth.authorization.slice('Bearer '.length)));
  let sent = 0;
  const synced = () => eventually(async () => (Number(await deps.redis.get(counterKey)) >= sent ? true : undefined), 10_000, `the shared count to reach ${sent}`);
  const statuses = async (url: string, n: number) => {
    const answers = [];
    for (let i = 0; i < n; i++) {
      answers.push(await call(url, 'GET', `/${country}/listings/999999999`, auth));
      sent++;
      await synced();
    }
    return answers;
  };
  t.same(
    (await statuses(a, 6)).map((r) => r.status),
    [404, 404, 404, 404, 404, 404],
    'six requests on the first instance',
  );
  const onB = await statuses(b, 6);
  t.same(
    onB.map((r) => r.status),
    [404, 404, 404, 404, 429, 429],
    'the other instance allows only the remaining four',
  );
  t.equal(onB[5]!.json().type, 'rate_limited');
  t.ok(Number(onB[5]!.headers.get('retry-after')) >= 1, 'with Retry-After');
  // The first instance last heard the shared count after its own sixth request: its next request
  // may pass before that sync adds it up and brings the others' count; from then on it refuses.
  const first = (await call(a, 'GET', `/${country}/listings/999999999`, auth)).status;
  t.ok([404, 429].includes(first), `the first instance's next request, before its sync: ${first}`);
  sent++;
  await synced();
  t.equal((await call(a, 'GET', `/${country}/listings/999999999`, auth)).status, 429, 'and after its sync the first instance refuses too');
});

t.test('writes spread over both instances are each indexed at their version; both indexers take jobs', async (t) => {
  const { auth } = await partner();
  let turn = 0;
  const { expected, retries } = await writeStream({ baseUrl: () => urls[turn++ % urls.length]!, auth, total: WRITES, country });
  await assertNothingLost(t, deps, country, expected, retries);
  for (const port of INDEXER_PORTS) {
    const metrics = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
    const indexed = Number(/^index_jobs_total\{outcome="indexed"\} (\d+)/m.exec(metrics)?.[1] ?? 0);
    t.ok(indexed > 0, `the indexer on ${port} indexed ${indexed} listings`);
  }
});

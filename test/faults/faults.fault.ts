// Fault injection: 2 000 mixed writes per scenario through the real API and indexer
// processes while a fault strikes; afterwards PostgreSQL and OpenSearch must agree exactly, every
// acknowledged write must be in the index, and every change must have reached a real webhook
// receiver (none lost). Run with `npm run test:faults`.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import t, { type Test } from 'tap';
import { INDEX_QUEUE, SYNC_LISTING_JOB } from '../../src/outbox/jobs.js';
import { build } from '../helper.js';
import { startApiProcess, startIndexerProcess, type Proc } from '../processes.js';
import { receiver } from '../webhook-receiver.js';
import { assertConverged, assertWebhooksDelivered, writeStream } from './harness.js';

const WRITES = Number(process.env.FAULT_WRITES ?? 2000);
const REDIS_PORT = 6391;
const REDIS_URL = `redis://127.0.0.1:${REDIS_PORT}`;
const API_PORT = 3300;
const INDEXER_PORT = 3301;
const country = 'de';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A Redis of the test's own, so that stopping it never touches the machine's shared one. */
function redisServer() {
  const child = spawn('redis-server', ['--port', String(REDIS_PORT), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  return {
    child,
    async stop() {
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    },
  };
}

let redis = redisServer();
await sleep(300);
const env = {
  REDIS_URL,
  QUEUE_PREFIX: `faults-${randomUUID().slice(0, 6)}`,
  RELAY_INTERVAL_MS: '500',
  RELAY_GRACE_MS: '1000',
  AUTH_CACHE_MS: '60000',
  // The receiver listens on 127.0.0.1; the retries add up to 38.5 s, so no outage here exhausts
  // them and disables the subscription.
  WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
  WEBHOOK_RETRY_SCHEDULE_MS: '500,1000,2000,5000,5000,5000,5000,5000,5000,5000',
  WEBHOOK_SWEEP_GRACE_MS: '1000',
  WEBHOOK_DISPATCH_INTERVAL_MS: '100',
  // The writers share one key: at the default 1 200 requests a minute the limiter, not the fault,
  // set the pace (10 000 writes took over 8 minutes, clients asleep on 429 when a fault struck).
  RATE_LIMIT_MAX: '100000000',
};
const { deps, partner } = await build(t, { config: { REDIS_URL, QUEUE_PREFIX: env.QUEUE_PREFIX } });
const { auth } = await partner();
const baseUrl = () => `http://127.0.0.1:${API_PORT}`;

/** Every API and indexer process the scenarios started: the teardown stops any still running. */
const started: Proc[] = [];
const tracked = (proc: Proc) => {
  started.push(proc);
  return proc;
};
const startApi = async () => tracked(await startApiProcess(API_PORT, env));
const startIndexer = async (extra: Record<string, string> = {}) => tracked(await startIndexerProcess(INDEXER_PORT, { ...env, ...extra }));

let api: Proc = await startApi();
let indexer: Proc = await startIndexer();
t.teardown(async () => {
  // All of them, not only the last assigned: a process left running keeps this file from ending.
  for (const proc of started) await proc.stop();
  await redis.stop();
});

// One subscription to every change of the country, on a receiver that always answers 200.
// Teardowns run last first: the subscription goes before the receiver closes and the processes stop.
const hooks = await receiver(t);
const created = await fetch(`${baseUrl()}/webhooks`, {
  method: 'POST',
  headers: { ...auth, 'content-type': 'application/json' },
  body: JSON.stringify({ url: hooks.url, events: ['*'], countries: [country], scope: 'all' }),
});
if (created.status !== 201) throw new Error(`POST /webhooks: ${created.status} ${await created.text()}`);
const webhook = (await created.json()) as { id: string };
t.teardown(async () => {
  await deps.database.pool.query('delete from webhooks where id = $1', [webhook.id]);
});

async function run(t: Test, fault: (done: number) => Promise<void> | void) {
  const { expected, retries } = await writeStream({ baseUrl, auth, total: WRITES, country, onProgress: fault });
  const { differences, wrong } = await assertConverged(deps, country, expected);
  t.same(differences, [], 'reconcile: PostgreSQL and OpenSearch agree on ids and versions');
  t.same(wrong, [], `every acknowledged write is in the index (${expected.size} listings, ${retries} retried requests)`);
  await assertWebhooksDelivered(t, deps, webhook.id, hooks.requests);
}

t.test('1. the indexer is killed with SIGKILL and restarted, twice', async (t) => {
  // One restart after the other: when the writes reach the second point before the first restart
  // is ready (a slow start, fast writes), the second must kill the indexer the first started.
  let restarts = Promise.resolve();
  await run(t, async (done) => {
    if (done === Math.floor(WRITES * 0.3) || done === Math.floor(WRITES * 0.65)) {
      restarts = restarts.then(async () => {
        await indexer.stop('SIGKILL');
        await sleep(1000);
        indexer = await startIndexer();
      });
      await restarts;
    }
  });
});

t.test('2. Redis is down for 15 s and comes back empty', async (t) => {
  let outage: Promise<void> | undefined;
  await run(t, (done) => {
    if (done === Math.floor(WRITES * 0.25)) {
      outage = (async () => {
        await redis.stop();
        await sleep(15_000);
        redis = redisServer();
      })();
    }
  });
  await outage;
});

t.test('3. OpenSearch is unreachable for the indexer for 30 s', async (t) => {
  let outage: Promise<void> | undefined;
  await run(t, (done) => {
    if (done === Math.floor(WRITES * 0.25)) {
      outage = (async () => {
        await indexer.stop();
        indexer = await startIndexer({ OPENSEARCH_URL: 'http://127.0.0.1:9' }).catch(async () => indexer);
        await sleep(30_000);
        await indexer.stop();
        indexer = await startIndexer();
      })();
    }
  });
  await outage;
});

t.test('4. jobs are delivered twice and out of order', async (t) => {
  const connection = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
  const queue = new Queue(INDEX_QUEUE, { connection, prefix: env.QUEUE_PREFIX });
  t.teardown(async () => {
    await queue.close();
    connection.disconnect(); // BullMQ leaves a connection it was given open
  });
  const recent: number[] = [];
  await run(t, async (done) => {
    if (done % 10 !== 0) return;
    const rows = await deps.database.pool.query<{ id: number }>('select id from listings where country = $1 order by id desc limit 20', [country]);
    recent.splice(0, recent.length, ...rows.rows.map((r) => Number(r.id)));
    // Stale versions, duplicates and delays: every one must be refused or harmless.
    await queue.addBulk(
      recent.slice(0, 5).flatMap((listingId) => [
        { name: SYNC_LISTING_JOB, data: { listingId, country, version: 1 }, opts: { jobId: `dup-${randomUUID()}` } },
        { name: SYNC_LISTING_JOB, data: { listingId, country, version: 1 }, opts: { jobId: `late-${randomUUID()}`, delay: 1500 } },
      ]),
    );
  });
});

t.test('5. the API is killed with SIGKILL mid-stream and the client retries what was not acknowledged', async (t) => {
  await run(t, async (done) => {
    if (done === Math.floor(WRITES * 0.4)) {
      const dying = api.stop('SIGKILL');
      await dying;
      // Restarted in the background while the clients retry; a failed start must fail the test,
      // not leave the clients retrying against a dead port until the time limit.
      setTimeout(() => {
        startApi().then(
          (next) => {
            api = next;
          },
          (err: Error) => t.fail(`the API did not restart: ${err.message}`),
        );
      }, 500);
    }
  });
});

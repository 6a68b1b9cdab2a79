// One partner's dead receivers must not delay another partner's webhooks (docs/security.md,
// "Webhook deliveries share one pool"). Partner A has several `scope=all` subscriptions whose
// receiver accepts connections and never answers (a black hole: each attempt holds a worker slot
// for the whole WEBHOOK_TIMEOUT_MS); partner B has one subscription to a receiver that answers at
// once. Changes go to both through the real indexer process (indexer/main.ts).
//
// 1. With the caps (indexer/delivery-slots.ts), A's attempts hold at most its partner's cap of the
//    worker's slots, the rest of its deliveries wait in the queue unattempted, and every B delivery
//    arrives within LAG_LIMIT_MS of its change: the usual lag of sequencer, dispatcher and one
//    attempt, far below the attempt timeout.
// 2. With the caps lifted to WEBHOOK_CONCURRENCY, as before they existed, the same scenario delays
//    B: A's deliveries fill every slot of the worker for 10 s per round of attempts, and B's wait in
//    the queue behind them. This shows that (1) would fail without the caps.
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import net, { type AddressInfo, type Socket } from 'node:net';
import t, { type Test } from 'tap';
import { build, config, eventually, listingInput } from '../helper.js';
import { startIndexerProcess } from '../processes.js';
import { receiver } from '../webhook-receiver.js';

const INDEXER_PORT = 3321;
const country = 'de';
/** The worker's slots: fewer than the default 16 so that A fills them with few deliveries. */
const CONCURRENCY = 8;
const TIMEOUT_MS = 10_000;
const A_SUBSCRIPTIONS = 4;
const CHANGES = 10;
/** A delivery's usual lag is well under a second (two 100 ms timers and one attempt); a busy machine may stretch it. */
const LAG_LIMIT_MS = 4000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const { app, deps, partner } = await build(t, { config: { WEBHOOK_ALLOW_PRIVATE_TARGETS: true } });
const pool = deps.database.pool;

/**
 * A receiver that accepts every connection and never answers; it counts the connections open at
 * once, overall and per path (one path per subscription), and how many it accepted in all.
 */
async function blackHole(t: Test) {
  const sockets = new Set<Socket>();
  const openByPath = new Map<string, number>();
  const stats = { accepted: 0, open: 0, maxOpen: 0, maxOpenPerPath: 0 };
  const server = net.createServer((socket) => {
    sockets.add(socket);
    stats.accepted++;
    stats.maxOpen = Math.max(stats.maxOpen, ++stats.open);
    let path: string | undefined;
    socket.once('data', (chunk: Buffer) => {
      path = /^POST (\S+)/.exec(chunk.toString('latin1'))?.[1];
      if (!path) return;
      const n = (openByPath.get(path) ?? 0) + 1;
      openByPath.set(path, n);
      stats.maxOpenPerPath = Math.max(stats.maxOpenPerPath, n);
    });
    socket.on('error', () => {});
    socket.on('close', () => {
      sockets.delete(socket);
      stats.open--;
      if (path) openByPath.set(path, openByPath.get(path)! - 1);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  t.teardown(() => {
    for (const socket of sockets) socket.destroy();
    server.close();
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, stats };
}

type Owner = Awaited<ReturnType<typeof partner>>;

async function subscribe(owner: Owner, url: string): Promise<number> {
  const res = await app.inject({ method: 'POST', url: '/webhooks', headers: owner.auth, payload: { url, events: ['*'], countries: [country], scope: 'all' } });
  if (res.statusCode !== 201) throw new Error(`POST /webhooks answered ${res.statusCode}: ${res.body}`);
  return Number(res.json().id);
}

/** True once every committed change has its feed position and is fanned out into deliveries. */
async function dispatchedAll(): Promise<true | undefined> {
  const {
    rows: [row],
  } = await pool.query<{ done: boolean }>(`
    select not exists (select 1 from listing_changes where seq is null)
      and coalesce((select max(seq) from listing_changes), 0) <= coalesce((select last_seq from webhook_dispatch_state where id = 1), 0) as done`);
  return row!.done || undefined;
}

/** The scenario's deliveries to `webhookIds`, with the time each change was made. */
async function deliveriesTo(webhookIds: number[]) {
  const { rows } = await pool.query<{ public_id: string; at: Date; status: string; attempts: number }>(
    'select public_id, at, status, attempts from webhook_deliveries where webhook_id = any($1::bigint[]) and change_id is not null',
    [webhookIds],
  );
  return rows;
}

/**
 * Sets up A's black-holed subscriptions and B's, starts an indexer with the given caps, makes
 * CHANGES changes and returns what to measure. Teardowns run last first: the indexer stops, then
 * the subscriptions (and their deliveries) go, then the receivers close.
 */
async function scenario(t: Test, caps: { perSubscription: number; perPartner: number }) {
  const hole = await blackHole(t);
  const rx = await receiver(t, () => 200);
  const a = await partner();
  const b = await partner();
  const aHooks: number[] = [];
  for (let i = 1; i <= A_SUBSCRIPTIONS; i++) aHooks.push(await subscribe(a, `${hole.url}/a${i}`));
  const bHook = await subscribe(b, rx.url);
  t.teardown(async () => {
    await pool.query('delete from webhooks where partner_id = any($1::bigint[])', [[a.id, b.id]]);
  });

  // A queue of its own under the suite's prefix (scripts/test.sh clears it on the next run).
  const indexer = await startIndexerProcess(INDEXER_PORT, {
    QUEUE_PREFIX: `${config.QUEUE_PREFIX}-isolation-${randomUUID().slice(0, 6)}`,
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS),
    WEBHOOK_CONCURRENCY: String(CONCURRENCY),
    WEBHOOK_CONCURRENCY_PER_SUBSCRIPTION: String(caps.perSubscription),
    WEBHOOK_CONCURRENCY_PER_PARTNER: String(caps.perPartner),
    WEBHOOK_DISPATCH_INTERVAL_MS: '100',
    CHANGE_SEQUENCER_INTERVAL_MS: '100',
  });
  // Killed: a graceful stop would wait out the attempts still hanging on the black hole.
  t.teardown(() => indexer.stop('SIGKILL'));
  // Changes left by earlier files are fanned out first, so they do not count against B's lag.
  await eventually(dispatchedAll, 60_000, 'earlier changes to be fanned out');

  for (let i = 0; i < CHANGES; i++) {
    const res = await app.inject({ method: 'POST', url: `/${country}/listings`, headers: b.auth, payload: listingInput({ name: `Isolation ${randomUUID().slice(0, 8)}` }) });
    if (res.statusCode !== 201) throw new Error(`create answered ${res.statusCode}: ${res.body}`);
    await sleep(100);
  }
  await eventually(dispatchedAll, 30_000, "the scenario's changes to be fanned out");
  const bDeliveries = await deliveriesTo([bHook]);
  t.ok(bDeliveries.length >= CHANGES, `every change has a delivery to B (${bDeliveries.length})`);
  /** Each B delivery's lag from its change to its (first) arrival; undefined for one not arrived yet. */
  const lags = () => {
    const arrived = new Map<string, number>();
    for (const r of rx.requests) if (!arrived.has(r.message.id)) arrived.set(r.message.id, r.receivedAt);
    return bDeliveries.map((d) => {
      const at = arrived.get(d.public_id);
      return at === undefined ? undefined : at - d.at.getTime();
    });
  };
  return { hole, aHooks, bHook, bDeliveries, lags, firstChange: Math.min(...bDeliveries.map((d) => d.at.getTime())) };
}

t.test("a partner whose receivers never answer delays only its own deliveries: another partner's arrive with their usual lag", async (t) => {
  const caps = { perSubscription: 2, perPartner: 4 };
  const { hole, aHooks, bHook, lags, firstChange } = await scenario(t, caps);
  const all = await eventually(
    async () => {
      const measured = lags();
      return measured.every((lag) => lag !== undefined) ? (measured as number[]) : undefined;
    },
    30_000,
    'every B delivery to arrive',
  );
  const slowest = Math.max(...all);
  t.ok(slowest <= LAG_LIMIT_MS, `every B delivery arrived within ${LAG_LIMIT_MS} ms of its change (slowest ${slowest} ms, ${all.length} deliveries)`);
  t.same([...new Set((await deliveriesTo([bHook])).map((d) => d.status))], ['delivered'], "B's deliveries are all delivered");

  // A stays stuck within its caps. Its first round of attempts times out after TIMEOUT_MS and the
  // waiting deliveries take the freed slots; meanwhile each waiting one was put back several times.
  await sleep(Math.max(0, firstChange + TIMEOUT_MS + 3000 - Date.now()));
  t.equal(hole.stats.maxOpen, caps.perPartner, `A's receivers held at most its partner's cap of attempts at once, and reached it (${hole.stats.accepted} attempts in all)`);
  t.ok(hole.stats.maxOpenPerPath <= caps.perSubscription, `at most ${caps.perSubscription} attempts per subscription at once (${hole.stats.maxOpenPerPath})`);
  const aDeliveries = await deliveriesTo(aHooks);
  const attempts = aDeliveries.reduce((n, d) => n + d.attempts, 0);
  const finished = hole.stats.accepted - hole.stats.open;
  t.ok(aDeliveries.length >= A_SUBSCRIPTIONS * CHANGES, `every change has a delivery to each of A's subscriptions (${aDeliveries.length})`);
  t.equal(aDeliveries.filter((d) => d.status === 'delivered').length, 0, "none of A's deliveries arrived");
  t.ok(aDeliveries.filter((d) => d.status === 'pending').length > caps.perPartner, "A's deliveries wait, pending");
  t.ok(attempts > 0 && attempts <= finished, `A's deliveries count only the attempts its receivers saw end (${attempts} counted, ${finished} ended): being put back at the cap is no attempt`);
  const { rows: active } = await pool.query("select id from webhooks where id = any($1::bigint[]) and status = 'active'", [aHooks]);
  t.equal(active.length, A_SUBSCRIPTIONS, "A's subscriptions stay active");
});

t.test('with the caps lifted to WEBHOOK_CONCURRENCY, as before them, the same receivers hold every slot and delay the other partner', async (t) => {
  const { hole, bDeliveries, lags } = await scenario(t, { perSubscription: CONCURRENCY, perPartner: CONCURRENCY });
  // Wait until every B delivery was due to arrive, then count the ones that did not in time.
  const lastChange = Math.max(...bDeliveries.map((d) => d.at.getTime()));
  await sleep(Math.max(0, lastChange + LAG_LIMIT_MS + 500 - Date.now()));
  const late = lags().filter((lag) => lag === undefined || lag > LAG_LIMIT_MS).length;
  t.ok(late > 0, `B deliveries later than ${LAG_LIMIT_MS} ms: ${late} of ${CHANGES}; the test above would fail`);
  t.ok(hole.stats.maxOpen > 4, `A's receivers held ${hole.stats.maxOpen} of the worker's ${CONCURRENCY} slots at once`);
});

// Webhooks end to end (docs/contract.md §15): subscriptions through the API, changes made through
// the real listing routes, the indexer's dispatcher, sweeper and delivery worker running in this
// process, and real HTTP receivers on 127.0.0.1 (allowed by WEBHOOK_ALLOW_PRIVATE_TARGETS).
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import t, { type Test } from 'tap';
import { runEvery } from '../../indexer/periodic.js';
import { startDeliverySweeper, startDeliveryWorker } from '../../indexer/webhook-delivery.js';
import { dispatchChanges, startDispatcher } from '../../indexer/webhook-dispatch.js';
import { sequencePendingChanges } from '../../src/changes/changes-dal.js';
import type { Db } from '../../src/db/client.js';
import type { CreatedWebhook, Delivery, Webhook as WebhookView } from '../../src/schemas/webhooks.js';
import { createDeliveryQueue } from '../../src/webhooks/delivery-queue.js';
import { sealStoredSecrets } from '../../src/webhooks/seal-stored-secrets.js';
import { secretBoxOf } from '../../src/webhooks/secret-box.js';
import { webhookDeliveries as webhookDeliveriesTable, webhooks as webhooksTable } from '../../src/db/schema.js';
import { insertDeliveries } from '../../src/webhooks/webhooks-dal.js';
import { eq, sql } from 'drizzle-orm';
import { webhookSlotLimits } from '../../src/platform/config.js';
import { build, config, eventually, listingInput, logger, runId } from '../helper.js';
import { receiver, type Received } from '../webhook-receiver.js';

/** Short enough that the tests run the whole schedule in seconds. */
const TIMEOUT_MS = 1000;
const SCHEDULE_MS = [200, 400, 800, 1200, 1600, 2000];
/** Generous: the machine running the suite may be busy; nothing here asserts a duration. */
const WAIT_MS = 30_000;

const { app, deps, partner } = await build(t, { config: { WEBHOOK_ALLOW_PRIVATE_TARGETS: true } });
/** The API's and the indexer's box: the same configuration, so the same key. */
const secrets = secretBoxOf(config.WEBHOOK_SECRET_KEY, logger);
// One pass before this file writes anything creates the dispatch position, so no change of it is passed over.
await dispatchChanges({ db: deps.database.db });
startWebhookDelivery(t, deps.database.db);

/** The indexer's webhook pieces (indexer/main.ts), with short intervals, in this process. */
function startWebhookDelivery(t: Test, db: Db) {
  // The indexer numbers committed changes on a timer of its own; the same function runs here.
  const sequencer = runEvery(
    50,
    async () => {
      await sequencePendingChanges(db);
    },
    () => {},
  );
  const queue = createDeliveryQueue(config.REDIS_URL, config.QUEUE_PREFIX);
  const dispatcher = startDispatcher({ db, queue, logger, intervalMs: 100 });
  const worker = startDeliveryWorker({
    db,
    queue,
    logger,
    policy: { allowPrivate: true },
    timeoutMs: TIMEOUT_MS,
    schedule: SCHEDULE_MS,
    secrets,
    redisUrl: config.REDIS_URL,
    prefix: config.QUEUE_PREFIX,
    concurrency: 8,
    limits: webhookSlotLimits(config),
  });
  const sweeper = startDeliverySweeper({ db, queue, logger, graceMs: 200, intervalMs: 200 });
  t.teardown(async () => {
    await dispatcher.stop();
    await sweeper.stop();
    await sequencer.stop();
    await worker.close();
    await queue.close();
  });
}

/** A port nothing listens on (yet): bound, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

type Owner = Awaited<ReturnType<typeof partner>>;

async function subscribe(t: Test, owner: Owner, payload: Record<string, unknown>): Promise<CreatedWebhook> {
  const res = await app.inject({ method: 'POST', url: '/webhooks', headers: owner.auth, payload });
  t.equal(res.statusCode, 201, res.body);
  return res.json();
}

async function createListing(owner: Owner, name: string): Promise<string> {
  const res = await app.inject({ method: 'POST', url: '/de/listings', headers: owner.auth, payload: listingInput({ name }) });
  if (res.statusCode !== 201) throw new Error(`create answered ${res.statusCode}: ${res.body}`);
  return res.json().id;
}

async function renameListing(owner: Owner, id: string, name: string): Promise<void> {
  const res = await app.inject({ method: 'PUT', url: `/de/listings/${id}`, headers: owner.auth, payload: listingInput({ name }) });
  if (res.statusCode !== 200) throw new Error(`update answered ${res.statusCode}: ${res.body}`);
}

async function deliveries(owner: Owner, webhookId: string): Promise<Delivery[]> {
  const res = await app.inject({ url: `/webhooks/${webhookId}/deliveries`, headers: owner.auth });
  if (res.statusCode !== 200) throw new Error(`deliveries answered ${res.statusCode}: ${res.body}`);
  return res.json().deliveries;
}

/** Waits until `n` different messages (by webhook-id) of listing `listingId` have arrived; returns one request per message. */
function messagesOf(requests: Received[], listingId: string, n: number, what: string): Promise<Received[]> {
  return eventually(
    async () => {
      const byId = new Map<string, Received>();
      for (const r of requests) if (r.message.listing_id === listingId) byId.set(r.message.id, r);
      return byId.size >= n ? [...byId.values()] : undefined;
    },
    WAIT_MS,
    what,
  );
}

const verify = (secret: string, r: Received) => new Webhook(secret).verify(r.body, r.headers);

t.test('a partner creates, lists, reads, replaces and deletes its webhooks; the secret is shown only at creation', async (t) => {
  const owner = await partner();
  const hook = await subscribe(t, owner, { url: 'http://127.0.0.1:9/hook', events: ['created', 'updated'] });
  t.match(hook.id, /^[1-9][0-9]*$/);
  t.match(hook.secret, /^whsec_/);
  t.same(hook.events, ['created', 'updated']);
  t.same(hook.countries, config.countries, 'countries default to every enabled country');
  t.equal(hook.scope, 'claimed');
  t.equal(hook.status, 'active');
  const { secret: _secret, ...visible } = hook;

  const list = await app.inject({ url: '/webhooks', headers: owner.auth });
  t.equal(list.statusCode, 200);
  t.same(list.json(), { webhooks: [visible] }, 'the list shows no secret');

  const read = await app.inject({ url: `/webhooks/${hook.id}`, headers: owner.auth });
  t.equal(read.statusCode, 200);
  t.same(read.json(), visible);

  const replaced = await app.inject({
    method: 'PUT',
    url: `/webhooks/${hook.id}`,
    headers: owner.auth,
    payload: { url: 'http://127.0.0.1:9/other', events: ['*'], countries: ['DE'], scope: 'all' },
  });
  t.equal(replaced.statusCode, 200);
  t.same(replaced.json(), { ...visible, url: 'http://127.0.0.1:9/other', events: ['*'], countries: ['de'], scope: 'all' });

  const removed = await app.inject({ method: 'DELETE', url: `/webhooks/${hook.id}`, headers: owner.auth });
  t.equal(removed.statusCode, 204);
  t.equal((await app.inject({ url: `/webhooks/${hook.id}`, headers: owner.auth })).statusCode, 404);
  t.equal((await app.inject({ method: 'DELETE', url: `/webhooks/${hook.id}`, headers: owner.auth })).statusCode, 404);
});

t.test("another partner's webhook answers 404 to every route, and a request without a key 401", async (t) => {
  const owner = await partner();
  const stranger = await partner();
  const hook = await subscribe(t, owner, { url: 'http://127.0.0.1:9/hook', events: ['*'] });
  const body = { url: 'http://127.0.0.1:9/x', events: ['*'] };
  for (const [method, url, payload] of [
    ['GET', `/webhooks/${hook.id}`],
    ['PUT', `/webhooks/${hook.id}`, body],
    ['DELETE', `/webhooks/${hook.id}`],
    ['POST', `/webhooks/${hook.id}/test`],
    ['GET', `/webhooks/${hook.id}/deliveries`],
  ] as const) {
    const res = await app.inject({ method, url, headers: stranger.auth, ...(payload && { payload }) });
    t.equal(res.statusCode, 404, `${method} ${url}`);
    t.equal(res.json().type, 'not_found');
  }
  t.same((await app.inject({ url: '/webhooks', headers: stranger.auth })).json(), { webhooks: [] });
  t.equal((await app.inject({ url: '/webhooks' })).statusCode, 401);
  t.equal((await app.inject({ url: `/webhooks/${hook.id}`, headers: owner.auth })).statusCode, 200, 'the owner still has it');
});

t.test('the 11th webhook of a partner is refused with 409, also when all are created at once', async (t) => {
  const owner = await partner();
  const answers = await Promise.all(
    Array.from({ length: 11 }, (_, i) => app.inject({ method: 'POST', url: '/webhooks', headers: owner.auth, payload: { url: `http://127.0.0.1:9/hook${i}`, events: ['*'] } })),
  );
  const statuses = answers.map((a) => a.statusCode).sort();
  t.same(statuses, [...Array(10).fill(201), 409]);
  t.equal(answers.find((a) => a.statusCode === 409)!.json().type, 'conflict');
  t.equal((await app.inject({ url: '/webhooks', headers: owner.auth })).json().webhooks.length, 10);
});

t.test('bad subscriptions answer 400 validation naming the field', async (t) => {
  const owner = await partner();
  const cases: [Record<string, unknown>, RegExp][] = [
    [{ url: 'ftp://example.com/hook', events: ['*'] }, /^url:/],
    [{ url: 'http://127.0.0.1:9/', events: ['renamed'] }, /^events\[0\]:/],
    [{ url: 'http://127.0.0.1:9/', events: [] }, /^events:/],
    [{ url: 'http://127.0.0.1:9/', events: ['*', 'created'] }, /^events:/],
    [{ url: 'http://127.0.0.1:9/', events: ['created', 'created'] }, /^events:.*duplicate/],
    // Objects whose own valueOf is not a function once crashed the duplicate check into a 500.
    [{ url: 'http://127.0.0.1:9/', events: [{ valueOf: 1 }, { valueOf: 1 }] }, /^events\[0\]:/],
    [{ url: 'http://127.0.0.1:9/', events: ['*'], countries: ['xx'] }, /^countries:/],
    [{ url: 'http://127.0.0.1:9/', events: ['*'], scope: 'mine' }, /^scope:/],
    [{ url: 'http://169.254.169.254/latest/meta-data', events: ['*'] }, /^url: .*metadata/],
    [{ url: 'http://[fe80::1]/', events: ['*'] }, /^url: .*linkLocal/],
  ];
  for (const [payload, detail] of cases) {
    const res = await app.inject({ method: 'POST', url: '/webhooks', headers: owner.auth, payload });
    t.equal(res.statusCode, 400, JSON.stringify(payload));
    t.equal(res.json().type, 'validation');
    t.ok(
      res.json().details.some((d: string) => detail.test(d)),
      `${res.json().details} matches ${detail}`,
    );
  }
});

t.test('without WEBHOOK_ALLOW_PRIVATE_TARGETS, loopback and private targets are refused on create and replace', async (t) => {
  const strict = await build(t, { config: { WEBHOOK_ALLOW_PRIVATE_TARGETS: false } });
  const owner = await strict.partner();
  for (const url of ['http://127.0.0.1:8080/hook', 'http://localhost/hook', 'http://10.0.0.5/hook', 'http://0x7f.1/', 'http://[::ffff:192.168.0.1]/', 'http://[fd00::1]/']) {
    const res = await strict.app.inject({ method: 'POST', url: '/webhooks', headers: owner.auth, payload: { url, events: ['*'] } });
    t.equal(res.statusCode, 400, url);
    t.match(res.json().details.join(' '), /^url: host .* is not allowed/);
    if (url.includes('localhost')) t.notMatch(res.json().details.join(' '), /127\.0\.0\.1|::1|loopback/, 'nothing of what the name resolved to');
  }
  // Created through the lenient app (both share the database), replaced through the strict one.
  const hook = await subscribe(t, owner, { url: 'http://127.0.0.1:9/hook', events: ['*'] });
  const replaced = await strict.app.inject({ method: 'PUT', url: `/webhooks/${hook.id}`, headers: owner.auth, payload: { url: 'http://127.0.0.1:9/hook', events: ['*'] } });
  t.equal(replaced.statusCode, 400);
});

t.test('changes of a claimed listing arrive signed, with the same id and body on every retry, and carry their versions', async (t) => {
  const owner = await partner();
  // Fails twice, then accepts.
  const rx = await receiver(t, (n) => (n <= 2 ? 500 : 204));
  const hook = await subscribe(t, owner, { url: rx.url, events: ['*'] });
  const id = await createListing(owner, 'Webhook Bäckerei');
  const [first] = await messagesOf(rx.requests, id, 1, 'the created message');
  // Later writes once the receiver has recovered.
  await eventually(async () => (rx.requests.length >= 3 ? true : undefined), WAIT_MS, 'two failed attempts and a third');
  await renameListing(owner, id, 'Webhook Bäckerei 2');
  await renameListing(owner, id, 'Webhook Bäckerei 3');
  const messages = await messagesOf(rx.requests, id, 3, 'created and two updates');

  for (const r of rx.requests) t.same(verify(hook.secret, r), r.message, `${r.message.id} verifies with the standardwebhooks library`);
  const attemptsOfFirst = rx.requests.filter((r) => r.message.id === first!.message.id);
  t.ok(attemptsOfFirst.length >= 3, 'the first message was tried until accepted');
  t.ok(
    attemptsOfFirst.every((r) => r.headers['webhook-id'] === first!.message.id && r.body === first!.body),
    'every retry has the same id and the same bytes',
  );

  const byVersion = [...messages].sort((a, b) => a.message.version! - b.message.version!);
  t.same(
    byVersion.map((m) => m.message.type),
    ['created', 'updated', 'updated'],
  );
  t.ok(byVersion.every((m) => m.message.country === 'de' && m.message.listing_id === id));
  t.equal(new Set(byVersion.map((m) => m.message.version)).size, 3, 'each message has its own version');

  const listed = await eventually(
    async () => {
      const list = await deliveries(owner, hook.id);
      return list.length === 3 && list.every((d) => d.status === 'delivered') ? list : undefined;
    },
    WAIT_MS,
    'three delivered deliveries',
  );
  const firstDelivery = listed.find((d) => d.id === first!.message.id)!;
  t.ok(firstDelivery.attempts >= 3);
  t.equal(firstDelivery.last_status_code, 204);
  t.same(
    listed.map((d) => d.version),
    [...listed.map((d) => d.version)].sort((a, b) => b! - a!),
    'newest first',
  );
});

t.test('payloads name the fields each change touched; a PUT or PATCH that changes nothing sends nothing', async (t) => {
  const owner = await partner();
  const rx = await receiver(t);
  await subscribe(t, owner, { url: rx.url, events: ['*'] });
  const id = await createListing(owner, 'Webhook Felder');
  await renameListing(owner, id, 'Webhook Felder'); // the same content: no change
  const unchanged = await app.inject({ method: 'PATCH', url: `/de/listings/${id}`, headers: owner.auth, payload: { name: 'Webhook Felder' } });
  t.equal(unchanged.json().version, 1);
  const patched = await app.inject({ method: 'PATCH', url: `/de/listings/${id}`, headers: owner.auth, payload: { description: 'Neu' } });
  t.equal(patched.json().version, 2);
  const messages = await messagesOf(rx.requests, id, 2, 'created and one update');
  const byVersion = [...messages].sort((a, b) => a.message.version! - b.message.version!).map((m) => m.message);
  t.same(
    byVersion.map((m) => [m.type, m.version]),
    [
      ['created', 1],
      ['updated', 2],
    ],
    'nothing for the writes that changed nothing',
  );
  t.ok(byVersion[0]!.fields.includes('name') && byVersion[0]!.fields.includes('hours'), 'created: every field');
  t.same(byVersion[1]!.fields, ['description', 'version']);
  // Nothing more arrives for this listing once the dispatcher has passed the update.
  await new Promise((resolve) => setTimeout(resolve, 1000));
  t.equal(new Set(rx.requests.filter((r) => r.message.listing_id === id).map((r) => r.message.id)).size, 2);
});

t.test('a receiver slower than the timeout is tried again', async (t) => {
  const owner = await partner();
  const rx = await receiver(t, async (n) => {
    if (n === 1) await new Promise((resolve) => setTimeout(resolve, TIMEOUT_MS * 3));
    return 200;
  });
  const hook = await subscribe(t, owner, { url: rx.url, events: ['created'] });
  const id = await createListing(owner, 'Slow receiver');
  const [delivery] = await eventually(
    async () => {
      const list = await deliveries(owner, hook.id);
      return list.length === 1 && list[0]!.status === 'delivered' ? list : undefined;
    },
    WAIT_MS,
    'the delivery',
  );
  t.ok(delivery!.attempts >= 2, 'the unanswered attempt counted as failed');
  const seen = rx.requests.filter((r) => r.message.listing_id === id);
  t.ok(seen.length >= 2);
  t.equal(new Set(seen.map((r) => r.message.id)).size, 1, 'one message, delivered again');
});

t.test('a receiver that is down for a while gets everything once it is up', async (t) => {
  const owner = await partner();
  const port = await closedPort();
  const hook = await subscribe(t, owner, { url: `http://127.0.0.1:${port}/hook`, events: ['*'] });
  const ids = [await createListing(owner, 'Down 1'), await createListing(owner, 'Down 2')];
  await renameListing(owner, ids[0]!, 'Down 1 renamed');
  // Every delivery has failed at least once, with no status (connection refused).
  await eventually(
    async () => {
      const list = await deliveries(owner, hook.id);
      return list.length === 3 && list.every((d) => d.status === 'pending' && d.attempts >= 1 && d.last_status_code === null) ? true : undefined;
    },
    WAIT_MS,
    'three failed first attempts',
  );
  const rx = await receiver(t, () => 200, { port });
  await messagesOf(rx.requests, ids[0]!, 2, 'both messages of the first listing');
  await messagesOf(rx.requests, ids[1]!, 1, 'the message of the second listing');
  const list = await eventually(
    async () => {
      const l = await deliveries(owner, hook.id);
      return l.every((d) => d.status === 'delivered') ? l : undefined;
    },
    WAIT_MS,
    'every delivery delivered',
  );
  t.same([...new Set(rx.requests.map((r) => r.message.id))].sort(), list.map((d) => d.id).sort(), 'every delivery arrived, nothing else');
  for (const r of rx.requests) t.same(verify(hook.secret, r), r.message);
});

t.test("scope claimed sends only changes of the subscriber's listings; scope all sends every change of its countries", async (t) => {
  const owner = await partner();
  const other = await partner();
  const mine = await receiver(t);
  const everything = await receiver(t);
  await subscribe(t, owner, { url: mine.url, events: ['*'] });
  await subscribe(t, owner, { url: everything.url, events: ['created'], countries: ['de'], scope: 'all' });
  const othersListing = await createListing(other, 'Not mine');
  const myListing = await createListing(owner, 'Mine');
  await messagesOf(everything.requests, othersListing, 1, "the other partner's listing under scope all");
  await messagesOf(everything.requests, myListing, 1, 'my listing under scope all');
  await messagesOf(mine.requests, myListing, 1, 'my listing under scope claimed');
  t.notOk(
    mine.requests.some((r) => r.message.listing_id === othersListing),
    "scope claimed leaves out other partners' listings",
  );
});

t.test('POST /webhooks/:id/test answers 202 and sends a signed ping', async (t) => {
  const owner = await partner();
  const rx = await receiver(t);
  const hook = await subscribe(t, owner, { url: rx.url, events: ['created'] });
  const res = await app.inject({ method: 'POST', url: `/webhooks/${hook.id}/test`, headers: owner.auth });
  t.equal(res.statusCode, 202);
  const { id } = res.json();
  t.match(id, /^msg_/);
  const ping = await eventually(async () => rx.requests.find((r) => r.message.id === id), WAIT_MS, 'the ping');
  t.match(ping.message, { id, type: 'ping', listing_id: null });
  t.equal(ping.headers['webhook-id'], id);
  t.same(verify(hook.secret, ping), ping.message);
  await eventually(async () => ((await deliveries(owner, hook.id)).find((d) => d.id === id && d.status === 'delivered') ? true : undefined), WAIT_MS, 'the ping delivered');
});

t.test('a receiver that fails the whole retry schedule gets its subscription disabled; PUT re-enables it', async (t) => {
  const owner = await partner();
  const rx = await receiver(t, () => 500);
  const hook = await subscribe(t, owner, { url: rx.url, events: ['created'] });
  await createListing(owner, 'Always failing');
  const disabled = await eventually(
    async () => {
      const read = (await app.inject({ url: `/webhooks/${hook.id}`, headers: owner.auth })).json() as WebhookView;
      return read.status === 'disabled' ? read : undefined;
    },
    WAIT_MS,
    'the subscription disabled',
  );
  t.equal(disabled.status, 'disabled');
  const [delivery] = await deliveries(owner, hook.id);
  t.equal(delivery!.status, 'failed');
  t.equal(delivery!.attempts, SCHEDULE_MS.length + 1, 'the first attempt and one per retry');
  t.equal(delivery!.last_status_code, 500);
  t.equal(rx.requests.length, SCHEDULE_MS.length + 1);

  const enabled = await app.inject({ method: 'PUT', url: `/webhooks/${hook.id}`, headers: owner.auth, payload: { url: rx.url, events: ['created'] } });
  t.equal(enabled.statusCode, 200);
  t.equal(enabled.json().status, 'active');
});

/** The subscription's row as stored. */
async function storedWebhook(id: string) {
  const [row] = await deps.database.db
    .select()
    .from(webhooksTable)
    .where(eq(webhooksTable.id, Number(id)));
  return row!;
}

/** Sends a ping and waits for it to arrive. */
async function pingReceived(owner: Owner, hookId: string, requests: Received[]): Promise<Received> {
  const res = await app.inject({ method: 'POST', url: `/webhooks/${hookId}/test`, headers: owner.auth });
  if (res.statusCode !== 202) throw new Error(`ping answered ${res.statusCode}: ${res.body}`);
  const { id } = res.json();
  return eventually(async () => requests.find((r) => r.message.id === id), WAIT_MS, 'the ping');
}

t.test('the signing secret is stored encrypted, not as issued, and messages still verify with the issued one', async (t) => {
  const owner = await partner();
  const rx = await receiver(t);
  const hook = await subscribe(t, owner, { url: rx.url, events: ['created'] });
  const stored = await storedWebhook(hook.id);
  t.not(stored.secret, hook.secret);
  t.notOk(stored.secret.includes(hook.secret.slice('whsec_'.length)), 'the stored value does not contain the secret');
  t.match(verify(hook.secret, await pingReceived(owner, hook.id, rx.requests)), { type: 'ping' });
});

t.test("a secret stored in clear text before encryption keeps signing and is sealed by the indexer's start-up pass", async (t) => {
  const owner = await partner();
  const rx = await receiver(t);
  const hook = await subscribe(t, owner, { url: rx.url, events: ['created'] });
  await deps.database.db
    .update(webhooksTable)
    .set({ secret: hook.secret })
    .where(eq(webhooksTable.id, Number(hook.id)));
  t.match(verify(hook.secret, await pingReceived(owner, hook.id, rx.requests)), { type: 'ping' }, 'the clear-text secret signs');
  t.ok((await sealStoredSecrets(deps.database.db, secrets)) >= 1);
  const stored = await storedWebhook(hook.id);
  t.match(stored.secret, /^enc1:/);
  t.equal(secrets.open(stored.secret), hook.secret);
  t.match(verify(hook.secret, await pingReceived(owner, hook.id, rx.requests)), { type: 'ping' }, 'the sealed secret signs the same');
});

t.test('POST /webhooks/:id/rotate issues a new secret once; both secrets sign for 24 h, then only the new one', async (t) => {
  const owner = await partner();
  const rx = await receiver(t);
  const hook = await subscribe(t, owner, { url: rx.url, events: ['created'] });
  const res = await app.inject({ method: 'POST', url: `/webhooks/${hook.id}/rotate`, headers: owner.auth });
  t.equal(res.statusCode, 200, res.body);
  const rotated = res.json();
  t.match(rotated.secret, /^whsec_/);
  t.not(rotated.secret, hook.secret);
  const expires = Date.parse(rotated.previous_secret_expires_at) - Date.now();
  t.ok(expires > 23.9 * 3600_000 && expires <= 24 * 3600_000 + 5000, `the old secret expires in 24 h (${expires} ms)`);

  const during = await pingReceived(owner, hook.id, rx.requests);
  t.match(during.headers['webhook-signature'], /^v1,\S+ v1,\S+$/, 'two signatures');
  t.match(verify(rotated.secret, during), { type: 'ping' }, 'verifies with the new secret');
  t.match(verify(hook.secret, during), { type: 'ping' }, 'verifies with the old secret');

  // The 24 hours have passed.
  await deps.database.db
    .update(webhooksTable)
    .set({ previousSecretUntil: sql`now() - interval '1 second'` })
    .where(eq(webhooksTable.id, Number(hook.id)));
  const after = await pingReceived(owner, hook.id, rx.requests);
  t.match(after.headers['webhook-signature'], /^v1,\S+$/, 'one signature');
  t.match(verify(rotated.secret, after), { type: 'ping' });
  t.throws(() => verify(hook.secret, after), 'the old secret no longer verifies');

  const other = await partner();
  t.equal((await app.inject({ method: 'POST', url: `/webhooks/${hook.id}/rotate`, headers: other.auth })).statusCode, 404, "another partner's webhook is not found");
});

t.test('test pings are limited per subscription: past WEBHOOK_PINGS_PER_MINUTE a ping answers 429 with Retry-After; another subscription is unaffected', async (t) => {
  const owner = await partner();
  const busy = await subscribe(t, owner, { url: 'http://127.0.0.1:9/busy', events: ['created'] });
  const quiet = await subscribe(t, owner, { url: 'http://127.0.0.1:9/quiet', events: ['created'] });
  const ping = (id: string) => app.inject({ method: 'POST', url: `/webhooks/${id}/test`, headers: owner.auth });
  const burst = await Promise.all(Array.from({ length: config.WEBHOOK_PINGS_PER_MINUTE + 3 }, () => ping(busy.id)));
  t.same(burst.map((r) => r.statusCode).sort(), [...Array(config.WEBHOOK_PINGS_PER_MINUTE).fill(202), 429, 429, 429], 'a concurrent burst admits exactly the limit');
  const refused = burst.find((r) => r.statusCode === 429)!;
  t.match(refused.json(), { type: 'rate_limited', message: /test pings a minute/ });
  const retryAfter = Number(refused.headers['retry-after']);
  t.ok(retryAfter >= 1 && retryAfter <= 60, `Retry-After ${retryAfter} s`);
  t.equal((await deliveries(owner, busy.id)).length, config.WEBHOOK_PINGS_PER_MINUTE, 'refused pings store nothing');
  t.equal((await ping(quiet.id)).statusCode, 202, 'the other subscription still pings');
});

t.test('a subscription keeps at most WEBHOOK_DELIVERIES_KEPT deliveries: a ping prunes the oldest finished ones', async (t) => {
  const kept = 100;
  const capped = await build(t, { config: { WEBHOOK_ALLOW_PRIVATE_TARGETS: true, WEBHOOK_DELIVERIES_KEPT: kept } });
  const owner = await capped.partner();
  const created = await capped.app.inject({ method: 'POST', url: '/webhooks', headers: owner.auth, payload: { url: 'http://127.0.0.1:9/hook', events: ['created'] } });
  t.equal(created.statusCode, 201);
  const hookId = Number(created.json().id);
  // 150 finished deliveries, as a long run of pings would have left.
  const old = Array.from({ length: 150 }, (_, i) => ({
    publicId: `msg_old_${runId}_${i}`,
    webhookId: hookId,
    changeId: null,
    type: 'ping',
    country: null,
    listingId: null,
    version: null,
    at: new Date(),
    payload: '{}',
  }));
  await insertDeliveries(deps.database.db, old);
  await deps.database.db.update(webhookDeliveriesTable).set({ status: 'delivered', createdAt: sql`now() - interval '1 hour'` }).where(eq(webhookDeliveriesTable.webhookId, hookId));

  const res = await capped.app.inject({ method: 'POST', url: `/webhooks/${hookId}/test`, headers: owner.auth });
  t.equal(res.statusCode, 202);
  const stored = await deps.database.db
    .select({ publicId: webhookDeliveriesTable.publicId })
    .from(webhookDeliveriesTable)
    .where(eq(webhookDeliveriesTable.webhookId, hookId))
    .orderBy(webhookDeliveriesTable.id);
  t.equal(stored.length, kept);
  t.equal(stored.at(-1)!.publicId, res.json().id, 'the new ping is kept');
  t.equal(stored[0]!.publicId, `msg_old_${runId}_${150 - kept + 1}`, 'the oldest went first');
});

// A delivery checks its target again when it is attempted (docs/contract.md §15), never trusting
// the check made when the subscription was stored: by then the name may resolve elsewhere, or the
// policy refuse what it resolves to. Subscriptions go through the API as in webhooks.test.ts (which
// allows private targets); the indexer's attempt (indexer/webhook-delivery.ts) is called directly,
// under the policy each step names, and no worker or sweeper runs in this file to make one of its own.
import t from 'tap';
import { attemptDelivery, type DeliveryDeps } from '../../indexer/webhook-delivery.js';
import { createLogger } from '../../src/platform/logger.js';
import type { CreatedWebhook, Delivery } from '../../src/schemas/webhooks.js';
import { createDeliveryQueue, deliveryJobId } from '../../src/webhooks/delivery-queue.js';
import { secretBoxOf } from '../../src/webhooks/secret-box.js';
import { listDeliveries } from '../../src/webhooks/webhooks-dal.js';
import { build, config, logger } from '../helper.js';
import { receiver } from '../webhook-receiver.js';

const TIMEOUT_MS = 1000;
/** One retry, due within the attempt claim's early tolerance (webhooks-dal.ts), so the test can make it at once. */
const SCHEDULE_MS = [500];

const { app, deps, partner } = await build(t, { config: { WEBHOOK_ALLOW_PRIVATE_TARGETS: true } });
const queue = createDeliveryQueue(config.REDIS_URL, config.QUEUE_PREFIX);
t.teardown(() => queue.close());

// The refusal is written nowhere but the attempt's log line: the delivery row keeps a status code only.
const logLines: string[] = [];
const captureLogger = createLogger('info', 'test', {
  write: (line: string) => {
    logLines.push(line);
  },
});

const deliveryDeps = (allowPrivate: boolean): DeliveryDeps => ({
  db: deps.database.db,
  queue,
  logger: captureLogger,
  policy: { allowPrivate },
  timeoutMs: TIMEOUT_MS,
  schedule: SCHEDULE_MS,
  secrets: secretBoxOf(config.WEBHOOK_SECRET_KEY, logger),
});

t.test('a host allowed when subscribed that resolves to loopback at delivery is refused under the default policy: nothing is sent, a retry is scheduled', async (t) => {
  const owner = await partner();
  // `localhost` really resolves to loopback (no stubbed resolver): the private-target flag let the
  // subscription in, and the receiver listens on the address the name resolves to first, the one
  // an unchecked attempt would connect to.
  const rx = await receiver(t, () => 200, { host: 'localhost' });
  const created = await app.inject({ method: 'POST', url: '/webhooks', headers: owner.auth, payload: { url: rx.url, events: ['created'] } });
  t.equal(created.statusCode, 201, created.body);
  const hook: CreatedWebhook = created.json();
  // Its deliveries go with it: a job left in the shared queue then finds nothing to send.
  t.teardown(() => app.inject({ method: 'DELETE', url: `/webhooks/${hook.id}`, headers: owner.auth }));
  // A ping is a delivery due now that only a sweeper would enqueue: the attempts below are its only ones.
  const ping = await app.inject({ method: 'POST', url: `/webhooks/${hook.id}/test`, headers: owner.auth });
  t.equal(ping.statusCode, 202);
  const [row] = await listDeliveries(deps.database.db, Number(hook.id), 1);
  t.equal(row?.publicId, ping.json().id);
  const deliveryId = row!.id;
  const owners = { webhookId: Number(hook.id), partnerId: owner.id };

  // The default policy (WEBHOOK_ALLOW_PRIVATE_TARGETS off) at delivery time.
  t.equal(await attemptDelivery(deliveryDeps(false), { deliveryId, attempt: 1, ...owners }), 'retrying');
  t.equal(rx.requests.length, 0, 'nothing reached the receiver');
  const listed = await app.inject({ url: `/webhooks/${hook.id}/deliveries`, headers: owner.auth });
  t.equal(listed.statusCode, 200);
  const [delivery] = listed.json().deliveries as Delivery[];
  t.match(delivery, { id: ping.json().id, status: 'pending', attempts: 1, last_status_code: null }, 'one failed attempt, no answer');
  t.type(delivery?.next_attempt_at, 'string', 'the next attempt is due at a set time');
  const failure = logLines.map((line) => JSON.parse(line)).find((line) => line.deliveryId === deliveryId && line.attempt === 1);
  t.match(
    failure,
    {
      msg: 'webhook delivery failed; will retry',
      statusCode: null,
      retryInMs: SCHEDULE_MS[0],
      error: /^host localhost is not allowed: \S+ is a loopback address$/,
    },
    "the attempt failed on the guard's refusal",
  );
  const retry = await queue.queue.getJob(deliveryJobId({ deliveryId, attempt: 2 }));
  t.equal(await retry?.getState(), 'delayed', "attempt 2 is enqueued with the schedule's delay");
  await retry?.remove();

  // The same delivery with private targets allowed does reach the receiver: the refusal, not the
  // address, kept the first attempt from arriving.
  t.equal(await attemptDelivery(deliveryDeps(true), { deliveryId, attempt: 2, ...owners }), 'delivered');
  t.equal(rx.requests.length, 1);
  t.equal(rx.requests[0]?.message.id, ping.json().id);
});

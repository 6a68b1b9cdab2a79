// Sends webhook deliveries (docs/contract.md §15): a BullMQ worker of its own, so slow receivers
// never hold up index jobs, with caps per subscription and per partner, so one partner's slow
// receivers never hold up another's webhooks, and a sweeper that re-enqueues due deliveries whose
// job went missing.
import { DelayedError, Worker, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { Db } from '../src/db/client.js';
import { parseDeliveryJob, WEBHOOK_QUEUE, type DeliveryJob, type DeliveryQueue } from '../src/webhooks/delivery-queue.js';
import type { SecretBox } from '../src/webhooks/secret-box.js';
import { retryDelayMs } from '../src/webhooks/retry-schedule.js';
import { isDelivered, sendWebhook, type AttemptResult } from '../src/webhooks/send-webhook.js';
import { checkTarget, LOOKUP_TIMEOUT_MS, TargetRefusedError, type ResolveHost, type TargetPolicy } from '../src/webhooks/target-guard.js';
import { webhookHeaders } from '../src/webhooks/webhook-signature.js';
import { abandonDelivery, claimAttempt, failAndDisable, findDueDeliveries, findReceivingWebhook, markDelivered, scheduleRetry } from '../src/webhooks/webhooks-dal.js';
import { acquireOrDefer, createDeliverySlots, deferralDelayMs, type SlotLimits } from './delivery-slots.js';
import { runEvery } from './periodic.js';

export interface DeliveryDeps {
  db: Db;
  queue: Pick<DeliveryQueue, 'enqueue'>;
  logger: Logger;
  policy: TargetPolicy;
  timeoutMs: number;
  /** Waits before each retry (src/webhooks/retry-schedule.ts). */
  schedule: readonly number[];
  resolve?: ResolveHost;
  /** Opens the stored signing secrets. */
  secrets: Pick<SecretBox, 'open'>;
}

/**
 * How long past the send timeout a running attempt keeps its delivery before the sweeper presumes
 * it dead: the DNS look-up's own limit plus room for the database. Should an attempt outlive it
 * anyway, the outcome written first counts (webhooks-dal.ts, stillAttempt).
 */
const LEASE_MARGIN_MS = LOOKUP_TIMEOUT_MS + 5000;

export type AttemptOutcome = 'skipped' | 'abandoned' | 'delivered' | 'retrying' | 'failed';

/**
 * Makes attempt `job.attempt` of a delivery: the stored body, signed afresh, to the address the
 * guard checks now (the URL's host may resolve elsewhere than at subscription time).
 */
export async function attemptDelivery(deps: DeliveryDeps, job: DeliveryJob): Promise<AttemptOutcome> {
  const { db } = deps;
  const delivery = await claimAttempt(db, job.deliveryId, job.attempt, deps.timeoutMs + LEASE_MARGIN_MS);
  if (!delivery) return 'skipped';
  const webhook = await findReceivingWebhook(db, delivery.webhookId);
  // A disabled subscription, or one of a revoked partner, receives nothing: its pending
  // deliveries fail without an attempt (a deleted one took its deliveries with it).
  if (!webhook) {
    await abandonDelivery(db, delivery.id);
    return 'abandoned';
  }
  let result: AttemptResult;
  try {
    const target = await checkTarget(webhook.url, deps.policy, deps.resolve);
    const secrets = webhook.signingSecrets.map((stored) => deps.secrets.open(stored));
    result = await sendWebhook(target, webhookHeaders(secrets, delivery.publicId, delivery.payload), delivery.payload, deps.timeoutMs);
  } catch (err) {
    if (!(err instanceof TargetRefusedError)) throw err;
    result = { statusCode: null, error: err.message };
  }
  const log = deps.logger.child({ deliveryId: delivery.id, webhookId: webhook.id, attempt: job.attempt });
  if (isDelivered(result)) {
    await markDelivered(db, delivery.id, job.attempt, result.statusCode!);
    return 'delivered';
  }
  const delayMs = retryDelayMs(deps.schedule, job.attempt);
  if (delayMs === undefined) {
    await failAndDisable(db, delivery, job.attempt, result.statusCode);
    log.warn({ statusCode: result.statusCode, error: result.error }, 'webhook delivery failed for good; subscription disabled');
    return 'failed';
  }
  await scheduleRetry(db, delivery.id, job.attempt, result.statusCode, delayMs);
  log.info({ statusCode: result.statusCode, error: result.error, retryInMs: delayMs }, 'webhook delivery failed; will retry');
  try {
    await deps.queue.enqueue([{ ...job, attempt: job.attempt + 1 }], delayMs);
  } catch (err) {
    log.warn({ err }, 'enqueueing the retry failed; the sweeper will');
  }
  return 'retrying';
}

/**
 * Puts back a delivery whose subscription or partner runs as many attempts as its cap allows, to
 * be looked at again after deferralDelayMs: about as long as the oldest attempt holding the cap
 * has run (indexer/delivery-slots.ts). Moving the job to BullMQ's
 * delayed set frees the worker slot at once, which waiting in this process would not, and costs
 * PostgreSQL nothing, which postponing the delivery's due time for the sweeper would not; the
 * delivery was not claimed, so PostgreSQL counts no attempt (no retry step, no disablement), and
 * BullMQ counts none either (moveToDelayed skips it). The job keeps its id, so the sweeper's
 * re-enqueue of the overdue delivery is a no-op meanwhile. Order is not promised
 * (docs/partners/sync-and-webhooks.md), so a delivery overtaken meanwhile breaks nothing.
 */
async function deferDelivery(job: Job, token: string | undefined, busyForMs: number): Promise<never> {
  await job.moveToDelayed(Date.now() + deferralDelayMs(busyForMs), token);
  throw new DelayedError();
}

export function startDeliveryWorker(deps: DeliveryDeps & { redisUrl: string; prefix: string; concurrency: number; limits: SlotLimits }): { worker: Worker; close(): Promise<void> } {
  // A worker waits for Redis instead of failing its commands (BullMQ: maxRetriesPerRequest null).
  const connection = new Redis(deps.redisUrl, { maxRetriesPerRequest: null });
  connection.on('error', () => {});
  const slots = createDeliverySlots(deps.limits);
  const worker = new Worker(
    WEBHOOK_QUEUE,
    async (job, token) => {
      const data = parseDeliveryJob(job.data);
      const release = await acquireOrDefer(slots, data);
      if (!release) return deferDelivery(job, token, slots.busyForMs(data));
      try {
        return await attemptDelivery(deps, data);
      } finally {
        release();
      }
    },
    { connection, prefix: deps.prefix, concurrency: deps.concurrency },
  );
  worker.on('failed', (job, err) => deps.logger.warn({ jobId: job?.id, err }, 'webhook delivery job failed'));
  worker.on('error', (err) => deps.logger.warn({ err }, 'webhook worker connection error'));
  return {
    worker,
    async close() {
      await worker.close();
      connection.disconnect();
    },
  };
}

/** One sweep: enqueues pending deliveries overdue by `graceMs` (a lost job, a dead attempt, a new ping). */
export async function sweepDueDeliveries({ db, queue, graceMs, batchSize = 1000 }: { db: Db; queue: Pick<DeliveryQueue, 'enqueue'>; graceMs: number; batchSize?: number }): Promise<number> {
  const due = await findDueDeliveries(db, graceMs, batchSize);
  await queue.enqueue(due.map((d) => ({ deliveryId: d.id, attempt: d.attempts + 1, webhookId: d.webhookId, partnerId: d.partnerId })));
  return due.length;
}

export function startDeliverySweeper(deps: { db: Db; queue: Pick<DeliveryQueue, 'enqueue'>; logger: Logger; graceMs: number; intervalMs: number }): { stop(): Promise<void> } {
  return runEvery(
    deps.intervalMs,
    async () => {
      const count = await sweepDueDeliveries(deps);
      if (count) deps.logger.debug({ count }, 'enqueued due webhook deliveries');
    },
    (err) => deps.logger.warn({ err }, 'webhook sweep failed; retrying on the next tick'),
  );
}

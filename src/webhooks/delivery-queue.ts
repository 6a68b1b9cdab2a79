// The indexer's queue of webhook delivery attempts. PostgreSQL holds the truth (each delivery's
// status and due time); a job only says "try attempt N of delivery D now", so a lost job is
// re-enqueued by the sweeper and a duplicate one finds its attempt taken and does nothing.
import { Type, type Static } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';

export const WEBHOOK_QUEUE = 'webhook-deliveries';
export const DELIVER_JOB = 'deliver';

export const DeliveryJobSchema = Type.Object({
  deliveryId: Type.Integer({ minimum: 1 }),
  /** 1 for the first attempt. */
  attempt: Type.Integer({ minimum: 1 }),
  /**
   * The delivery's subscription and its partner: the worker caps attempts per subscription and per
   * partner (indexer/delivery-slots.ts) before it reads anything, so a delivery put back at the cap
   * costs no database query. A job without them (queued by an older indexer) fails as malformed,
   * and the sweeper enqueues its delivery again in this form.
   */
  webhookId: Type.Integer({ minimum: 1 }),
  partnerId: Type.Integer({ minimum: 1 }),
});
export type DeliveryJob = Static<typeof DeliveryJobSchema>;

/** BullMQ job ids must not be digits only nor contain ':'; one id per attempt dedupes re-enqueues. */
export const deliveryJobId = (job: Pick<DeliveryJob, 'deliveryId' | 'attempt'>) => `delivery-${job.deliveryId}-${job.attempt}`;

export function parseDeliveryJob(data: unknown): DeliveryJob {
  if (!Value.Check(DeliveryJobSchema, data)) throw new Error(`malformed ${DELIVER_JOB} job: ${JSON.stringify(data)}`);
  return data;
}

// Our own retry schedule decides when an unanswered delivery is tried again; BullMQ's attempts
// only cover the job itself failing (PostgreSQL unreachable), after which the sweeper takes over.
const DELIVERY_JOB_OPTIONS = {
  attempts: 3,
  backoff: { type: 'exponential', delay: 1000 },
  removeOnComplete: true,
  removeOnFail: true,
} as const;

export interface DeliveryQueue {
  /** Enqueues attempts, each after `delayMs`. */
  enqueue(jobs: DeliveryJob[], delayMs?: number): Promise<void>;
  queue: Queue;
  close(): Promise<void>;
}

/** Fails fast while Redis is down: the deliveries are in PostgreSQL and the sweeper enqueues them later. */
export function createDeliveryQueue(redisUrl: string, prefix: string): DeliveryQueue {
  const connection = new Redis(redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1, connectTimeout: 2000 });
  connection.on('error', () => {});
  const queue = new Queue(WEBHOOK_QUEUE, { connection, prefix });
  queue.on('error', () => {});
  return {
    queue,
    async enqueue(jobs, delayMs = 0) {
      if (jobs.length === 0) return;
      await queue.addBulk(jobs.map((data) => ({ name: DELIVER_JOB, data, opts: { ...DELIVERY_JOB_OPTIONS, jobId: deliveryJobId(data), delay: delayMs } })));
    },
    async close() {
      await queue.close();
      connection.disconnect();
    },
  };
}

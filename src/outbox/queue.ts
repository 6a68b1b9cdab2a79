import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { INDEX_QUEUE, SYNC_LISTING_JOB, syncJobId, type SyncListingJob } from './jobs.js';

export interface IndexQueue {
  enqueue(jobs: SyncListingJob[]): Promise<void>;
  queue: Queue;
  close(): Promise<void>;
}

// Failed attempts back off exponentially from 500 ms; after the last one the job is dropped and
// the outbox relay enqueues it again, so a long OpenSearch outage still heals by itself.
export const SYNC_JOB_OPTIONS = {
  attempts: 10,
  backoff: { type: 'exponential', delay: 500 },
  removeOnComplete: true,
  removeOnFail: true,
} as const;

/**
 * The producer side. It fails fast when Redis is down (no offline queue): the write is already
 * committed with its outbox row, and the relay delivers it once Redis is back.
 */
export function createIndexQueue(redisUrl: string, prefix: string): IndexQueue {
  const connection = new Redis(redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1, connectTimeout: 2000 });
  connection.on('error', () => {}); // reported through failed enqueues and /readyz instead
  const queue = new Queue(INDEX_QUEUE, { connection, prefix });
  queue.on('error', () => {});
  return {
    queue,
    async enqueue(jobs) {
      if (jobs.length === 0) return;
      await queue.addBulk(jobs.map((data) => ({ name: SYNC_LISTING_JOB, data, opts: { ...SYNC_JOB_OPTIONS, jobId: syncJobId(data) } })));
    },
    async close() {
      await queue.close();
      connection.disconnect();
    },
  };
}

import { Worker } from 'bullmq';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { dependencyOf } from '../src/platform/dependency-errors.js';
import type { Metrics } from '../src/platform/metrics.js';
import { INDEX_QUEUE, parseSyncListingJob } from '../src/outbox/jobs.js';
import type { SyncListing } from './listing-sync.js';

export interface RunningWorker {
  worker: Worker;
  /** Finishes the active jobs (unfinished ones return to the queue) and closes the connection. */
  close(): Promise<void>;
}

export function startWorker(opts: { redisUrl: string; prefix: string; concurrency: number; sync: SyncListing; logger: Logger; metrics: Pick<Metrics, 'dependencyErrors'> }): RunningWorker {
  // A worker waits for Redis instead of failing its commands (BullMQ: maxRetriesPerRequest null).
  const connection = new Redis(opts.redisUrl, { maxRetriesPerRequest: null });
  connection.on('error', () => {});
  // `concurrency` jobs run at once and meet in the sync's micro-batches (indexer/listing-sync.ts):
  // it bounds the batch size as much as INDEXER_BATCH_SIZE does.
  const worker = new Worker(
    INDEX_QUEUE,
    async (job) => {
      // Redis is a boundary: validate what comes out of it.
      const data = parseSyncListingJob(job.data);
      return opts.sync(data);
    },
    { connection, prefix: opts.prefix, concurrency: opts.concurrency },
  );
  worker.on('failed', (job, err) => {
    const dependency = dependencyOf(err);
    if (dependency) opts.metrics.dependencyErrors.inc({ dependency });
    opts.logger.warn({ jobId: job?.id, attempt: job?.attemptsMade, err }, 'index job failed; will retry');
  });
  worker.on('error', (err) => opts.logger.warn({ err }, 'worker connection error'));
  return {
    worker,
    async close() {
      await worker.close();
      connection.disconnect(); // BullMQ leaves a connection it was given open
    },
  };
}

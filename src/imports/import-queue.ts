// The queue of bulk-import runs (docs/contract.md §19). PostgreSQL holds the jobs and their
// progress; a queue job only says "run partner P's unfinished imports, oldest first". One id per
// partner keeps a partner's imports on one runner at a time, and a lost job is enqueued again by
// the indexer's sweep (indexer/import-runner.ts), so the queue owns latency, not correctness.
import { Type, type Static } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';

export const IMPORT_QUEUE = 'bulk-imports';
export const RUN_IMPORTS_JOB = 'run-imports';

export const RunImportsJobSchema = Type.Object({ partnerId: Type.Integer({ minimum: 1 }) });
export type RunImportsJob = Static<typeof RunImportsJobSchema>;

/** BullMQ job ids must not be digits only nor contain ':'. */
export const runImportsJobId = (job: RunImportsJob) => `imports-of-partner-${job.partnerId}`;

export function parseRunImportsJob(data: unknown): RunImportsJob {
  if (!Value.Check(RunImportsJobSchema, data)) throw new Error(`malformed ${RUN_IMPORTS_JOB} job: ${JSON.stringify(data)}`);
  return data;
}

// A run that fails (PostgreSQL unreachable) is retried a few times; after that the sweep takes over.
const RUN_JOB_OPTIONS = { attempts: 5, backoff: { type: 'exponential', delay: 1000 }, removeOnComplete: true, removeOnFail: true } as const;

export interface ImportQueue {
  /** Asks for a run of these partners' imports; a partner whose run is waiting or active is not added twice. */
  enqueue(partnerIds: number[]): Promise<void>;
  queue: Queue;
  close(): Promise<void>;
}

/** Fails fast while Redis is down: the job is in PostgreSQL and the sweep enqueues it later. */
export function createImportQueue(redisUrl: string, prefix: string): ImportQueue {
  const connection = new Redis(redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1, connectTimeout: 2000 });
  connection.on('error', () => {});
  const queue = new Queue(IMPORT_QUEUE, { connection, prefix });
  queue.on('error', () => {});
  return {
    queue,
    async enqueue(partnerIds) {
      if (partnerIds.length === 0) return;
      await queue.addBulk(partnerIds.map((partnerId) => ({ name: RUN_IMPORTS_JOB, data: { partnerId }, opts: { ...RUN_JOB_OPTIONS, jobId: runImportsJobId({ partnerId }) } })));
    },
    async close() {
      await queue.close();
      connection.disconnect();
    },
  };
}

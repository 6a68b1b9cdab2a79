// Transactional outbox: the change and its index event commit together; publishing to the queue
// afterwards is only an optimisation for latency ("BullMQ owns latency, not correctness").
import type { Logger } from 'pino';
import type { DbOrTx } from '../db/client.js';
import { outbox } from '../db/schema.js';
import type { SyncListingJob } from './jobs.js';
import type { IndexQueue } from './queue.js';

/** Records that listing `listingId` changed to `version`; call inside the writing transaction. */
export async function recordIndexEvent(tx: DbOrTx, event: SyncListingJob): Promise<void> {
  await tx.insert(outbox).values({ listingId: event.listingId, country: event.country, version: event.version });
}

export type PublishIndexEvents = (events: SyncListingJob[]) => Promise<void>;

/**
 * Enqueues committed events, never throwing: a failed enqueue (Redis down, timeout) is logged and
 * left to the relay, because the outbox row is already durable.
 */
export function createPublisher(queue: Pick<IndexQueue, 'enqueue'>, logger: Logger, timeoutMs = 1000): PublishIndexEvents {
  return async (events) => {
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        queue.enqueue(events),
        new Promise((_, reject) => { timer = setTimeout(() => reject(new Error(`enqueue timed out after ${timeoutMs} ms`)), timeoutMs); }),
      ]);
    } catch (err) {
      logger.warn({ err, events: events.length }, 'enqueue failed; the outbox relay will deliver the events');
    } finally {
      clearTimeout(timer);
    }
  };
}

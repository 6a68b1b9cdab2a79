// Transactional outbox: the change and its index event commit together (outbox-dal.ts); publishing
// to the queue afterwards is only an optimisation for latency ("BullMQ owns latency, not correctness").
import type { Logger } from 'pino';
import type { SyncListingJob } from './jobs.js';
import type { IndexQueue } from './queue.js';

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
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error(`enqueue timed out after ${timeoutMs} ms`)), timeoutMs);
        }),
      ]);
    } catch (err) {
      logger.warn({ err, events: events.length }, 'enqueue failed; the outbox relay will deliver the events');
    } finally {
      clearTimeout(timer);
    }
  };
}

// Transactional outbox: the change and its index event commit together; publishing to the queue
// afterwards is only an optimisation for latency ("BullMQ owns latency, not correctness").
import { and, eq, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { DbOrTx } from '../db/client.js';
import { outbox } from '../db/schema.js';
import type { SyncListingJob } from './jobs.js';
import type { IndexQueue } from './queue.js';

/** Records that listing `listingId` changed to `version`; call inside the writing transaction. */
export async function recordIndexEvent(tx: DbOrTx, event: SyncListingJob): Promise<void> {
  await tx.insert(outbox).values({ listingId: event.listingId, country: event.country, version: event.version });
}

/** Which transactions have committed as of now, as PostgreSQL's `pg_snapshot` text. */
export async function currentSnapshot(db: DbOrTx): Promise<string> {
  const { rows } = await db.execute<{ snapshot: string }>(sql`select pg_current_snapshot()::text as snapshot`);
  return rows[0]!.snapshot;
}

/**
 * Marks pending again every event of `country` written by a transaction that had not committed
 * as of `snapshot`, and returns their listings. Pending rows are what the relay delivers, so once
 * this returns they reach the index even if the caller fails afterwards.
 */
export async function reopenEventsUnseenBy(db: DbOrTx, country: string, snapshot: string): Promise<number[]> {
  const rows = await db.update(outbox).set({ processedAt: null }).where(and(
    eq(outbox.country, country),
    // Every transaction the snapshot does not see has an id at or above its xmin: lets the index narrow the scan.
    sql`${outbox.txid} >= pg_snapshot_xmin(${snapshot}::pg_snapshot)`,
    sql`not pg_visible_in_snapshot(${outbox.txid}, ${snapshot}::pg_snapshot)`,
  )).returning({ listingId: outbox.listingId });
  return [...new Set(rows.map((r) => r.listingId))];
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

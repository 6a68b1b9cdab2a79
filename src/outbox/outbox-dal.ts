// Every SQL statement on the outbox, the API → indexer contract: the API records events in its
// writing transactions (with the change-feed entry, in one statement: src/changes/changes-dal.ts
// recordChange, or createdChangeInserts inside a create's own statement); the indexer marks them
// processed, relays stranded ones and purges old ones; a reindex reopens those its copy may have
// missed; metrics and the CLI count the backlog.
import { and, count, eq, gte, inArray, isNotNull, isNull, lt, min, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.js';
import { outbox } from '../db/schema.js';
import type { SyncListingJob } from './jobs.js';

/**
 * Marks done, in one statement, every pending event of each listing up to its `version`:
 * OpenSearch holds that version or a newer one (the indexer's micro-batch).
 */
export async function markEventsProcessedUpTo(db: DbOrTx, done: { listingId: number; version: number }[]): Promise<void> {
  if (done.length === 0) return;
  await db
    .update(outbox)
    .set({ processedAt: new Date() })
    .from(sql`unnest(${sql.param(done.map((d) => d.listingId))}::bigint[], ${sql.param(done.map((d) => d.version))}::bigint[]) as done(listing_id, version)`)
    .where(and(sql`${outbox.listingId} = done.listing_id`, sql`${outbox.version} <= done.version`, isNull(outbox.processedAt)));
}

/**
 * The newest pending version of every listing with an event written more than `olderThanMs` ago
 * (and less than `newerThanMs` ago, when given), at most `limit` listings. The ages are taken on
 * the database's clock, which wrote `created_at`. The scan walks `outbox_pending_idx` over that
 * range, processed events' entries included until a vacuum removes them: `newerThanMs` bounds it.
 */
export function findStrandedEvents(db: DbOrTx, { olderThanMs, newerThanMs }: { olderThanMs: number; newerThanMs?: number }, limit: number): Promise<SyncListingJob[]> {
  // The time of this statement, not of its transaction (now()): the same outside a transaction.
  const age = (ms: number) => sql`statement_timestamp() - ${ms} * interval '1 millisecond'`;
  return db
    .select({ listingId: outbox.listingId, country: outbox.country, version: sql<number>`max(${outbox.version})`.mapWith(Number) })
    .from(outbox)
    .where(and(isNull(outbox.processedAt), lt(outbox.createdAt, age(olderThanMs)), newerThanMs === undefined ? undefined : gte(outbox.createdAt, age(newerThanMs))))
    .groupBy(outbox.listingId, outbox.country)
    .limit(limit);
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
  const rows = await db
    .update(outbox)
    .set({ processedAt: null })
    .where(
      and(
        eq(outbox.country, country),
        // Every transaction the snapshot does not see has an id at or above its xmin: lets the index narrow the scan.
        sql`${outbox.txid} >= pg_snapshot_xmin(${snapshot}::pg_snapshot)`,
        sql`not pg_visible_in_snapshot(${outbox.txid}, ${snapshot}::pg_snapshot)`,
      ),
    )
    .returning({ listingId: outbox.listingId });
  return [...new Set(rows.map((r) => r.listingId))];
}

/**
 * Deletes up to `limit` events processed before `processedBefore`; returns how many went. Never
 * an unprocessed one: it is still to be delivered.
 */
export async function purgeProcessedEvents(db: DbOrTx, processedBefore: Date, limit: number): Promise<number> {
  const expired = db
    .select({ id: outbox.id })
    .from(outbox)
    .where(and(isNotNull(outbox.processedAt), lt(outbox.processedAt, processedBefore)))
    .limit(limit);
  const deleted = await db.delete(outbox).where(inArray(outbox.id, expired)).returning({ id: outbox.id });
  return deleted.length;
}

/** The number of events not yet indexed. */
export async function countPendingEvents(db: DbOrTx): Promise<number> {
  const rows = await db.select({ n: count() }).from(outbox).where(isNull(outbox.processedAt));
  return rows[0]!.n;
}

/** The number of events not yet indexed and when the oldest of them was written. */
export async function pendingEventsSummary(db: DbOrTx): Promise<{ pending: number; oldest: Date | null }> {
  const [row] = await db
    .select({ pending: count(), oldest: min(outbox.createdAt) })
    .from(outbox)
    .where(isNull(outbox.processedAt));
  return row!;
}

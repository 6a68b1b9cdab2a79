// Every SQL statement on the change feed's table (docs/contract.md §14). Writers insert rows
// without a position; the sequencer numbers committed rows afterwards, so feed positions follow
// commit order, not the order in which transactions began.
import { and, asc, gt, isNotNull, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../db/client.js';
import { listingChanges } from '../db/schema.js';

export type ChangeRow = typeof listingChanges.$inferSelect & { seq: number };

/** Any fixed 64-bit number: the advisory lock that lets one sequencer run at a time, cluster-wide. */
const SEQUENCER_LOCK = 7_241_016_001;

/**
 * Gives the next feed positions to up to `limit` committed, unnumbered changes, in the order they
 * were written, and returns how many it numbered. Positions continue from the highest one given,
 * under an advisory lock held to commit: a later pass starts after this one's commit, so it sees
 * these positions and only rows committed meanwhile, which take higher ones. A reader following
 * `seq` therefore never finds a lower position appearing behind it. When another pass holds the
 * lock this one returns 0 at once: that pass numbers the same rows.
 */
export async function sequencePendingChanges(db: Db, limit = 5000): Promise<number> {
  return db.transaction(async (tx) => {
    const { rows: [lock] } = await tx.execute<{ locked: boolean }>(sql`select pg_try_advisory_xact_lock(${SEQUENCER_LOCK}) as locked`);
    if (!lock!.locked) return 0;
    // A fresh statement, so its snapshot sees the previous pass's commit (READ COMMITTED).
    const { rowCount } = await tx.execute(sql`
      with last as (select coalesce(max(seq), 0) as seq from ${listingChanges}),
           pending as (
             select id, row_number() over (order by id) as n from ${listingChanges}
             where seq is null order by id limit ${limit})
      update ${listingChanges} c set seq = last.seq + pending.n
      from pending, last where c.id = pending.id`);
    return rowCount ?? 0;
  });
}

/** Up to `limit` numbered changes after position `afterSeq`, in feed order. */
export function readChangesAfter(db: DbOrTx, afterSeq: number, limit: number): Promise<ChangeRow[]> {
  return db.select().from(listingChanges)
    .where(and(isNotNull(listingChanges.seq), gt(listingChanges.seq, afterSeq)))
    .orderBy(asc(listingChanges.seq))
    .limit(limit) as Promise<ChangeRow[]>;
}

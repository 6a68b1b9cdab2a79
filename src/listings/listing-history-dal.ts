// Every SQL statement on a listing's history (docs/contract.md §21): the reads of a page of versions
// or of one version, each with the listing as it is now, and the purge of what retention lets go.
// The writes are part of the statements that record a change (src/changes/changes-dal.ts).
import { lt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.js';
import { preparedStatement } from '../db/prepared-statement.js';
import { listingHistory, listings, partners } from '../db/schema.js';
import type { HistoryRow } from './listing-history.js';
import { listingJson, toListingForView, type ListingForView, type ListingJson } from './listing-records.js';

/** A history row as JSON: its time is text until decoded. */
type HistoryRowJson = Omit<HistoryRow, 'at'> & { at: string };

interface ListingWithHistoryRow {
  record: ListingJson;
  rows: HistoryRowJson[];
  more: boolean;
}

// One statement, so that the listing and its history come from one snapshot: a version committed
// between two reads would leave the rows and the listing they are applied to out of step.
const listingWithHistoryStatement = preparedStatement<{ id: number; before: number; limit: number }, ListingWithHistoryRow>('listing_with_history', () => {
  const h = listingHistory;
  const page = sql`(select min(p.version) from (select version from ${h} where ${h.listingId} = ${listings.id}
      and ${h.version} < ${sql.placeholder('before')}::bigint order by ${h.version} desc limit ${sql.placeholder('limit')}::int) p)`;
  return sql`
      select ${listingJson} as record,
        coalesce((select json_agg(json_build_object('version', ${h.version}, 'kind', ${h.kind}, 'at', ${h.at}, 'actorId', ${h.actorId},
            'actorRole', ${partners.role}, 'channel', ${h.channel}, 'before', ${h.before}) order by ${h.version} desc)
          from ${h} left join ${partners} on ${partners.id} = ${h.actorId}
          where ${h.listingId} = ${listings.id} and ${h.version} >= ${page}), '[]'::json) as rows,
        exists (select 1 from ${h} where ${h.listingId} = ${listings.id} and ${h.version} < ${page}) as more
      from ${listings} where ${listings.id} = ${sql.placeholder('id')}::bigint`;
});

export interface ListingWithHistory {
  /** The listing as stored now, deleted or not. */
  record: ListingForView;
  /** Every history row from the oldest version of the page up to the newest, newest first. */
  rows: HistoryRow[];
  /** Older versions than the page's remain. */
  more: boolean;
}

/**
 * Listing `id` as stored now (undefined when none was ever stored), with the history rows it takes
 * to rebuild the page of up to `limit` versions below `before`: every row from the page's oldest
 * version up (src/listings/listing-history.ts rebuilds from the current listing backwards).
 */
export async function readListingWithHistory(db: DbOrTx, id: number, before: number, limit: number): Promise<ListingWithHistory | undefined> {
  const [row] = await listingWithHistoryStatement(db, { id, before, limit });
  if (!row) return undefined;
  return { record: toListingForView(row.record), rows: row.rows.map((r) => ({ ...r, at: new Date(r.at) })), more: row.more };
}

/** Deletes up to `limit` history rows written before `cutoff`; returns how many went. */
export async function purgeHistoryBefore(db: DbOrTx, cutoff: Date, limit: number): Promise<number> {
  const {
    rows: [row],
  } = await db.execute<{ n: number }>(sql`
    with doomed as (select ${listingHistory.listingId} as listing_id, ${listingHistory.version} as version from ${listingHistory}
           where ${lt(listingHistory.at, cutoff)} limit ${limit}),
         deleted as (delete from ${listingHistory} h using doomed
           where h.listing_id = doomed.listing_id and h.version = doomed.version returning 1)
    select count(*)::int as n from deleted`);
  return row!.n;
}

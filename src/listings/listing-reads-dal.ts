// The reads of listings: by id (for the API's answer or for the index document), the live listing a
// workflow starts from, and the keyset scans of the export, the reindex and the reconcile.
import { and, asc, count, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import { anyOf } from '../db/any-of.js';
import type { Db, DbOrTx } from '../db/client.js';
import { listings } from '../db/schema.js';
import { notFound } from '../platform/errors.js';
import { byListingId, selectListingsForIndex, selectListingsForView, toListingForIndex, toListingForView, type ListingForIndex, type ListingForView } from './listing-records.js';

/** Loads listings by id with everything the index document needs, soft-deleted ones included (the indexer needs their version). */
export async function loadListingsForIndex(db: DbOrTx, ids: number[]): Promise<Map<number, ListingForIndex>> {
  return ids.length === 0 ? new Map() : byListingId(selectListingsForIndex(db).where(anyOf(listings.id, ids)), toListingForIndex);
}

/** Loads listings by id as the API shows them (the export), soft-deleted ones included. */
export async function loadListingsForView(db: DbOrTx, ids: number[]): Promise<Map<number, ListingForView>> {
  return ids.length === 0 ? new Map() : byListingId(selectListingsForView(db).where(anyOf(listings.id, ids)), (row) => toListingForView(row.record));
}

/**
 * The read of one listing by id (soft-deleted ones included) for the API's GET: what the answer
 * shows, without the creator's name and the rating (a join and a scan of its reviews the answer
 * would drop). A prepared statement, built once per database handle: drizzle building this
 * query's SQL on every read was a visible share of GET by id's CPU (docs/performance.md), and PostgreSQL parses a named statement once per connection instead of every time.
 */
export function prepareListingForViewRead(db: Db): (id: number) => Promise<ListingForView | undefined> {
  const byId = selectListingsForView(db)
    .where(eq(listings.id, sql.placeholder('id')))
    .prepare('listed_record_by_id');
  return async (id) => {
    const [row] = await byId.execute({ id });
    return row && toListingForView(row.record);
  };
}

/** The live (not deleted) listing `id` of `country`, with who claims it; 404 otherwise. */
export async function findLiveListing(db: DbOrTx, country: string, id: number): Promise<{ claimedBy: number | null }> {
  const [row] = await db
    .select({ claimedBy: listings.claimedBy })
    .from(listings)
    .where(and(eq(listings.id, id), eq(listings.country, country), isNull(listings.deletedAt)));
  if (!row) throw notFound(`listing ${id}`);
  return row;
}

/** Up to `limit` live listings of a country with an id above `afterId`, in id order, with their versions (keyset pagination). */
export function liveListingVersionsAfter(db: DbOrTx, country: string, afterId: number, limit: number): Promise<{ id: number; version: number }[]> {
  return db
    .select({ id: listings.id, version: listings.version })
    .from(listings)
    .where(and(eq(listings.country, country), isNull(listings.deletedAt), gt(listings.id, afterId)))
    .orderBy(asc(listings.id))
    .limit(limit);
}

/**
 * Ids of up to `limit` live listings of a country with an id above `afterId`, in id order (keyset
 * pagination); only those `claimedBy` claims when given.
 */
export async function liveListingIdsAfter(db: DbOrTx, country: string, afterId: number, limit: number, claimedBy?: number): Promise<number[]> {
  const rows = await db
    .select({ id: listings.id })
    .from(listings)
    .where(and(eq(listings.country, country), isNull(listings.deletedAt), gt(listings.id, afterId), claimedBy === undefined ? undefined : eq(listings.claimedBy, claimedBy)))
    .orderBy(asc(listings.id))
    .limit(limit);
  return rows.map((r) => r.id);
}

export async function countLiveListings(db: DbOrTx, country: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(listings)
    .where(and(eq(listings.country, country), isNull(listings.deletedAt)));
  return row!.n;
}

/** The versions of the listings among `ids` that exist, soft-deleted ones included. */
export async function versionsOf(db: DbOrTx, ids: number[]): Promise<Map<number, number>> {
  const rows = await db.select({ id: listings.id, version: listings.version }).from(listings).where(inArray(listings.id, ids));
  return new Map(rows.map((r) => [r.id, r.version]));
}

// The SQL of partners' mappings (source_id → listing id, docs/contract.md §10).
import { and, asc, count, eq, inArray, like, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.js';
import { mappings } from '../db/schema.js';

/** The listing a partner's source_id maps to, if any. */
export async function findMappedListing(tx: DbOrTx, partnerId: number, sourceId: string): Promise<number | undefined> {
  const [existing] = await tx
    .select({ listingId: mappings.listingId })
    .from(mappings)
    .where(and(eq(mappings.partnerId, partnerId), eq(mappings.sourceId, sourceId)));
  return existing?.listingId;
}

/** The listings a partner's source_ids map to, by source_id (those mapped). */
export async function findMappedListings(tx: DbOrTx, partnerId: number, sourceIds: string[]): Promise<Map<string, number>> {
  if (sourceIds.length === 0) return new Map();
  const rows = await tx
    .select({ sourceId: mappings.sourceId, listingId: mappings.listingId })
    .from(mappings)
    .where(and(eq(mappings.partnerId, partnerId), inArray(mappings.sourceId, [...new Set(sourceIds)])));
  return new Map(rows.map((r) => [r.sourceId, r.listingId]));
}

/** Makes `sourceId` the partner's one mapping of the listing, replacing the one it had. */
export async function replaceMapping(tx: DbOrTx, mapping: { partnerId: number; sourceId: string; listingId: number; country: string }): Promise<void> {
  await tx.delete(mappings).where(and(eq(mappings.partnerId, mapping.partnerId), eq(mappings.listingId, mapping.listingId)));
  await tx.insert(mappings).values(mapping);
}

/** Drops every partner's mapping of listing `id`. */
export async function deleteMappingsOf(tx: DbOrTx, id: number): Promise<void> {
  await tx.delete(mappings).where(eq(mappings.listingId, id));
}

/** A partner's mappings in a country whose source_id matches the LIKE `pattern`, by source_id; and how many match. */
export async function findMappings(db: DbOrTx, partnerId: number, country: string, pattern: string | undefined, limit: number) {
  const where = and(eq(mappings.partnerId, partnerId), eq(mappings.country, country), pattern === undefined ? undefined : like(mappings.sourceId, pattern));
  const [rows, [total]] = await Promise.all([
    db
      .select({ sourceId: mappings.sourceId, listingId: mappings.listingId })
      .from(mappings)
      .where(where)
      .orderBy(asc(sql`${mappings.sourceId} collate "C"`))
      .limit(limit),
    db.select({ n: count() }).from(mappings).where(where),
  ]);
  return { rows, total: total!.n };
}

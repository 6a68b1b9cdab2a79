// The SQL of partners' mappings (source_id → listing id, docs/contract.md §10).
import { and, asc, count, eq, like, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.js';
import { listings, mappings } from '../db/schema.js';

/** The listing a partner's source_id maps to, if any. */
export async function findMappedListing(tx: DbOrTx, partnerId: number, sourceId: string): Promise<number | undefined> {
  const [existing] = await tx
    .select({ listingId: mappings.listingId })
    .from(mappings)
    .where(and(eq(mappings.partnerId, partnerId), eq(mappings.sourceId, sourceId)));
  return existing?.listingId;
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

/** A mapped listing as a bulk import's batch sees it (indexer/import-runner.ts). */
export interface MappedForImport {
  listingId: number;
  /** The listing's state now, for the checks an unchanged PUT makes. */
  version: number;
  country: string;
  live: boolean;
  claimedBy: number | null;
  /** What the mapping's last import line left (src/imports/import-fingerprint.ts). */
  importFingerprint: string | null;
  importVersion: number | null;
}

/** The partner's mappings of `sourceIds`, with their listings' state and fingerprints, by source_id: one read for a batch. */
export async function findMappingsForImport(tx: DbOrTx, partnerId: number, sourceIds: string[]): Promise<Map<string, MappedForImport>> {
  if (sourceIds.length === 0) return new Map();
  const rows = await tx
    .select({
      sourceId: mappings.sourceId,
      listingId: mappings.listingId,
      version: listings.version,
      country: listings.country,
      live: sql<boolean>`${listings.deletedAt} is null`,
      claimedBy: listings.claimedBy,
      importFingerprint: mappings.importFingerprint,
      importVersion: mappings.importVersion,
    })
    .from(mappings)
    .innerJoin(listings, eq(listings.id, mappings.listingId))
    .where(and(eq(mappings.partnerId, partnerId), sql`${mappings.sourceId} = any(${sql.param([...new Set(sourceIds)])}::text[])`));
  return new Map(rows.map(({ sourceId, ...mapped }) => [sourceId, mapped]));
}

/** Stores the fingerprint and version each source_id's last import line left, in one statement. */
export async function recordImportFingerprints(tx: DbOrTx, partnerId: number, rows: { sourceId: string; fingerprint: string; version: number }[]): Promise<void> {
  if (rows.length === 0) return;
  const values = JSON.stringify(rows.map((r) => ({ source_id: r.sourceId, fingerprint: r.fingerprint, version: r.version })));
  await tx.execute(sql`update ${mappings} set import_fingerprint = v.fingerprint, import_version = v.version
    from jsonb_to_recordset(${values}::jsonb) as v(source_id text, fingerprint text, version bigint)
    where ${mappings.partnerId} = ${partnerId} and ${mappings.sourceId} = v.source_id`);
}

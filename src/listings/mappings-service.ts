// A partner's own listing ids (docs/contract.md §10): only the caller's mappings, `*` wildcard;
// and the rule every write that carries a source_id follows.
import type { Db, DbOrTx } from '../db/client.js';
import { conflict } from '../platform/errors.js';
import type { Caller } from '../partners/partners-service.js';
import { findMappedListing, findMappings, replaceMapping } from './mappings-dal.js';
import type { Mapping, MappingsPage } from '../schemas/workflows.js';

export const MAX_MAPPINGS = 1000;

/** The description names the array `mappings`, the samples `results`: both keys, one place. */
export const MAPPING_ARRAY_KEYS = ['mappings', 'results'] as const;

/** `*` → `%`; LIKE's own `_` and `%` are escaped (source ids may contain `_`). */
export function likePattern(sourceId: string): string {
  return sourceId.replace(/[\\%_]/g, (c) => `\\${c}`).replace(/\*/g, '%');
}

/**
 * Answers 409 when the caller's `sourceId` already maps to a listing other than `listingId` (to
 * any listing, without one); returns the listing it maps to otherwise, if any.
 */
export async function refuseTakenSourceId(db: DbOrTx, caller: Caller, sourceId: string, listingId?: number): Promise<number | undefined> {
  const existing = await findMappedListing(db, caller.partnerId, sourceId);
  if (existing !== undefined && existing !== listingId) {
    throw conflict(`source_id "${sourceId}" already maps to listing ${existing}`, [`source_id: already used for listing ${existing}`]);
  }
  return existing;
}

/** Sets the caller's mapping source_id → listing; a source_id already used for another listing is a conflict. */
export async function setMapping(tx: DbOrTx, caller: Caller, country: string, listingId: number, sourceId: string): Promise<void> {
  if ((await refuseTakenSourceId(tx, caller, sourceId, listingId)) !== undefined) return;
  // One mapping per partner and listing: a new source_id replaces the old one.
  await replaceMapping(tx, { partnerId: caller.partnerId, sourceId, listingId, country });
}

export function createMappingsService({ db }: { db: Db }) {
  return {
    async find(caller: Caller, country: string, sourceId?: string): Promise<MappingsPage> {
      const { rows, total } = await findMappings(db, caller.partnerId, country, sourceId === undefined ? undefined : likePattern(sourceId), MAX_MAPPINGS);
      const found: Mapping[] = rows.map((r) => ({ source_id: r.sourceId, service_id: String(r.listingId) }));
      return {
        numFound: total,
        numReturned: found.length,
        ...(Object.fromEntries(MAPPING_ARRAY_KEYS.map((key) => [key, found])) as Record<(typeof MAPPING_ARRAY_KEYS)[number], Mapping[]>),
      };
    },
  };
}

export type MappingsService = ReturnType<typeof createMappingsService>;

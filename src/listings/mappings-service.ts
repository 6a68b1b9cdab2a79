// A partner's own listing ids (CONTRACT section 10): only the caller's mappings, `*` wildcard.
import type { Db } from '../db/client.js';
import type { Caller } from '../partners/partners-service.js';
import { findMappings } from './listings-dal.js';

export const MAX_MAPPINGS = 1000;

/** The description names the array `mappings`, the samples `results`: both keys, one place. */
export const MAPPING_ARRAY_KEYS = ['mappings', 'results'] as const;

export interface Mapping {
  source_id: string;
  service_id: string;
}

/** `*` → `%`; LIKE's own `_` and `%` are escaped (source ids may contain `_`). */
export function likePattern(sourceId: string): string {
  return sourceId.replace(/[\\%_]/g, (c) => `\\${c}`).replace(/\*/g, '%');
}

export function createMappingsService({ db }: { db: Db }) {
  return {
    async find(caller: Caller, country: string, sourceId?: string) {
      const { rows, total } = await findMappings(db, caller.partnerId, country, sourceId === undefined ? undefined : likePattern(sourceId), MAX_MAPPINGS);
      const found: Mapping[] = rows.map((r) => ({ source_id: r.sourceId, service_id: String(r.listingId) }));
      return {
        numFound: total,
        numReturned: found.length,
        ...Object.fromEntries(MAPPING_ARRAY_KEYS.map((key) => [key, found])) as Record<(typeof MAPPING_ARRAY_KEYS)[number], Mapping[]>,
      };
    },
  };
}

export type MappingsService = ReturnType<typeof createMappingsService>;

// A partner's own listing ids (CONTRACT section 10): only the caller's mappings, `*` wildcard.
import { and, asc, count, eq, like, sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { mappings } from '../db/schema.js';
import type { Caller } from '../partners/partners-service.js';
import type { Mapping, MappingsPage } from '../schemas/workflows.js';

export const MAX_MAPPINGS = 1000;

/** The description names the array `mappings`, the samples `results`: both keys, one place. */
export const MAPPING_ARRAY_KEYS = ['mappings', 'results'] as const;

/** `*` → `%`; LIKE's own `_` and `%` are escaped (source ids may contain `_`). */
export function likePattern(sourceId: string): string {
  return sourceId.replace(/[\\%_]/g, (c) => `\\${c}`).replace(/\*/g, '%');
}

export function createMappingsService({ db }: { db: Db }) {
  return {
    async find(caller: Caller, country: string, sourceId?: string): Promise<MappingsPage> {
      const where = and(
        eq(mappings.partnerId, caller.partnerId),
        eq(mappings.country, country),
        sourceId === undefined ? undefined : like(mappings.sourceId, likePattern(sourceId)),
      );
      const [rows, [total]] = await Promise.all([
        db.select({ sourceId: mappings.sourceId, listingId: mappings.listingId }).from(mappings)
          .where(where).orderBy(asc(sql`${mappings.sourceId} collate "C"`)).limit(MAX_MAPPINGS),
        db.select({ n: count() }).from(mappings).where(where),
      ]);
      const found: Mapping[] = rows.map((r) => ({ source_id: r.sourceId, service_id: String(r.listingId) }));
      return {
        numFound: total!.n,
        numReturned: found.length,
        ...Object.fromEntries(MAPPING_ARRAY_KEYS.map((key) => [key, found])) as Record<(typeof MAPPING_ARRAY_KEYS)[number], Mapping[]>,
      };
    },
  };
}

export type MappingsService = ReturnType<typeof createMappingsService>;

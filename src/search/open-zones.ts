// The time zones a country's listings use, for the open_now/open_at filter (one clause per zone,
// src/search/query/open-at-query.ts). Asked of the index with a terms aggregation and remembered for
// OPEN_ZONES_TTL_MS: a handful of zones per country, so one small request per country and period.
// For one more period after that, searches go on with the zones known while one request asks again
// in the background, so a steady stream of searches never waits for it; later, a search waits for
// the answer. A listing in a zone new to its country is therefore found by open searches at most
// two periods after it became searchable (1 s by default). The country's default zone is always
// included.
import { IANAZone } from 'luxon';
import { defaultTimeZone } from '../platform/config.js';
import type { OpenSearchClient } from '../opensearch/client.js';
import type { IndexNames } from '../opensearch/index-definitions.js';
import { searchThroughPool } from '../opensearch/pool-request.js';
import { OPEN_FIELDS } from './open-hours.js';

/** More zones than any country's listings use; past it a zone would be missed, so it is generous. */
const MAX_ZONES = 1000;

export function createOpenZones({ opensearch, names, ttlMs }: { opensearch: OpenSearchClient; names: IndexNames; ttlMs: number }) {
  const known = new Map<string, { zones: string[]; until: number }>();
  // One request per country at a time, however many searches ask meanwhile.
  const pending = new Map<string, Promise<string[]>>();

  async function fetchZones(country: string): Promise<string[]> {
    const body = { size: 0, track_total_hits: false, aggs: { zones: { terms: { field: OPEN_FIELDS.zone, size: MAX_ZONES } } } };
    const answer = await searchThroughPool<{ aggregations: { zones: { buckets: { key: string }[] } } }>(opensearch, {
      index: names.listingsAlias(country),
      body: JSON.stringify(body),
    });
    const { buckets } = answer.aggregations.zones;
    // A zone this process's time-zone data does not know (written by a newer instance) cannot be
    // turned into a local time here; its listings wait for this process's update.
    const zones = [...new Set([defaultTimeZone(country), ...buckets.map((b) => b.key)])].filter((zone) => IANAZone.isValidZone(zone));
    known.set(country, { zones, until: Date.now() + ttlMs });
    return zones;
  }

  return {
    /**
     * The zones of `country`'s listings, as of at most two OPEN_ZONES_TTL_MS ago: in the second
     * period they are answered while a refresh runs (a failed refresh is tried by the next search);
     * older ones are not answered at all.
     */
    async zonesOf(country: string): Promise<string[]> {
      const cached = known.get(country);
      const now = Date.now();
      if (cached && cached.until > now) return cached.zones;
      // With no period (0) every search asks and waits: nothing is answered from memory.
      const stale = cached && ttlMs > 0 && cached.until + ttlMs > now ? cached : undefined;
      let request = pending.get(country);
      if (!request) {
        request = fetchZones(country).finally(() => pending.delete(country));
        pending.set(country, request);
        // Nobody awaits a background refresh: its failure must not become an unhandled rejection.
        if (stale) request.catch(() => {});
      }
      return stale ? stale.zones : request;
    },
  };
}

export type OpenZones = ReturnType<typeof createOpenZones>;

// The open_now/open_at filter a search sends OpenSearch, evaluated there so that numFound and
// paging count only open listings: one clause over every zone the country's listings use
// (query/open-at-query.ts, open-zones.ts), or none without an instant. The search service and
// bench/request-path.ts both call it: the benchmark's raw side must send the API's body.
import type { OpenZones } from './open-zones.js';
import { openAtClause } from './query/open-at-query.js';

/** The filters to add for `openAt`; the zones are looked up only when there is one. */
export async function openFilter(openZones: Pick<OpenZones, 'zonesOf'>, country: string, openAt: Date | undefined): Promise<Record<string, unknown>[]> {
  return openAt ? [openAtClause(openAt, await openZones.zonesOf(country))] : [];
}

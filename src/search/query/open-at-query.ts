// The filter "open at instant I" of docs/contract.md §18, for the fields of src/search/open-hours.ts.
// I has one wall-clock time per zone, so the filter asks, zone by zone, for listings of that zone
// whose ranges contain that local time: no nightly rewrite of documents, and daylight-saving
// changes need no special case (a skipped wall time never occurs; a repeated one occurs twice).
import { createBoundedCache } from '../../platform/bounded-cache.js';
import { localMoment, OPEN_FIELDS, SECONDS_PER_DAY } from '../open-hours.js';

type Clause = Record<string, unknown>;

/** Listings of `zone` open at `instant`: not temporarily closed, and open by the special hours of the day or else its weekly hours. */
export function openInZoneClause(instant: Date, zone: string): Clause {
  const { date, epochDay, weekday, second } = localMoment(instant, zone);
  return {
    bool: {
      filter: [
        { term: { [OPEN_FIELDS.zone]: zone } },
        {
          bool: {
            should: [
              // A special-hours entry replaces the weekly hours of its date, so those count only on other dates.
              { bool: { filter: [{ term: { [OPEN_FIELDS.weekly]: weekday * SECONDS_PER_DAY + second } }], must_not: [{ term: { [OPEN_FIELDS.specialDates]: date } }] } },
              { term: { [OPEN_FIELDS.special]: epochDay * SECONDS_PER_DAY + second } },
            ],
            minimum_should_match: 1,
          },
        },
      ],
      must_not: [{ term: { [OPEN_FIELDS.closedDays]: epochDay } }],
    },
  };
}

/**
 * The clauses last built, by second and zones. The clause reads the instant to the second, so every
 * open_now search of one second (and every open_at search of one instant) sends the same clause:
 * it is built once, not per request (luxon's local time per zone cost more than the rest of an
 * address body). Callers place it in their bodies and never change it.
 */
const recentClauses = createBoundedCache<Clause>({ max: 64, ttlMs: Infinity });

/** Listings open at `instant`, over every zone the country's listings use (src/search/open-zones.ts). */
export function openAtClause(instant: Date, zones: readonly string[]): Clause {
  // A bool without clauses would match every listing.
  if (zones.length === 0) return { match_none: {} };
  const key = `${Math.floor(instant.getTime() / 1000)} ${zones.join(' ')}`;
  const recent = recentClauses.get(key);
  if (recent) return recent;
  const clause = { bool: { should: [...new Set(zones)].sort().map((zone) => openInZoneClause(instant, zone)), minimum_should_match: 1 } };
  recentClauses.set(key, clause);
  return clause;
}

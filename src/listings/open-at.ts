// The reference meaning of "open at an instant" (docs/contract.md §18), computed directly with
// luxon from the listing's hours. The search evaluates the same inside OpenSearch with ranges
// (src/search/open-hours.ts); tests check that both agree.
import { DateTime } from 'luxon';
import type { Listing } from '../schemas/listing.js';
import { DAYS, parseTime } from './hours.js';

export type ListingHours = Pick<Listing, 'hours' | 'special_hours' | 'temporarily_closed' | 'time_zone'>;

/** Whether the listing is open at `instant`, read on the wall clock of its own time zone. */
export function isOpenAt(listing: ListingHours, instant: Date): boolean {
  const local = DateTime.fromJSDate(instant, { zone: listing.time_zone });
  const date = local.toISODate()!;
  const closure = listing.temporarily_closed;
  if (closure && (closure.until === null || date <= closure.until)) return false;
  const special = listing.special_hours.find((d) => d.date === date);
  const intervals = special ? special.intervals : (listing.hours[DAYS[local.weekday - 1]!] ?? []);
  const second = local.hour * 3600 + local.minute * 60 + local.second;
  return intervals.some((i) => parseTime(i.start, false)! <= second && second < parseTime(i.end, true)!);
}

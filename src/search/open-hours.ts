// How opening hours live in the index so that "open at instant I" is one OpenSearch filter with no
// nightly rewrite (docs/architecture.md, "The read path"): the document keeps the hours as ranges of
// LOCAL time, and the query turns I into the local time of each zone the country's listings use.
// Daylight saving holds by construction: an instant has exactly one local time in a zone.
import { DateTime } from 'luxon';
import { DAYS, parseTime } from '../listings/hours.js';
import type { Listing } from '../schemas/listing.js';
import { internalField } from './internal-fields.js';

export const SECONDS_PER_DAY = 86_400;
/** The upper bound of an open-ended temporary closure: the largest integer_range value. */
const FOREVER = 2_147_483_647;
/** The lowest integer_range value: a closure covers every date up to `until`, also one before 1970. */
const EVER_SINCE = -2_147_483_648;

/** Index fields of the opening hours (mappings/listings.json), by their names in the `internal` object. */
const OPEN_FIELD_NAMES = {
  zone: 'open_tz',
  /** integer_range: seconds of the week (Monday 00:00 = 0) the weekly hours cover. */
  weekly: 'open_weekly',
  /** keyword: the dates with a special-hours entry, whose weekly hours do not apply. */
  specialDates: 'open_special_dates',
  /** long_range: local epoch day × 86400 + second of the day, for special days' intervals. */
  special: 'open_special',
  /** integer_range: local epoch days of a temporary closure. */
  closedDays: 'closed_days',
} as const;

/** The same fields by their paths, as queries name them (src/search/internal-fields.ts). */
export const OPEN_FIELDS = {
  zone: internalField(OPEN_FIELD_NAMES.zone),
  weekly: internalField(OPEN_FIELD_NAMES.weekly),
  specialDates: internalField(OPEN_FIELD_NAMES.specialDates),
  special: internalField(OPEN_FIELD_NAMES.special),
  closedDays: internalField(OPEN_FIELD_NAMES.closedDays),
} as const;

export type OpeningSchedule = Pick<Listing, 'hours' | 'special_hours' | 'temporarily_closed' | 'time_zone'>;

type Range = { gte: number; lt: number };

/** Days since 1970-01-01 of a calendar date YYYY-MM-DD. */
export function epochDay(date: string): number {
  const [y, m, d] = date.split('-').map(Number);
  // setUTCFullYear: Date.UTC would read the years 0–99 as 1900–1999.
  const utc = new Date(0);
  utc.setUTCFullYear(y!, m! - 1, d!);
  return Math.round(utc.getTime() / (SECONDS_PER_DAY * 1000));
}

/** The wall-clock moment of `instant` in `zone`: its date, weekday (0 = Monday) and second of the day. */
export function localMoment(instant: Date, zone: string) {
  const local = DateTime.fromMillis(instant.getTime(), { zone });
  const date = local.toISODate()!;
  return { date, epochDay: epochDay(date), weekday: local.weekday - 1, second: local.hour * 3600 + local.minute * 60 + local.second };
}

/** An interval of one day as a range of seconds from `offset` (end exclusive). */
const secondsRange = (offset: number, interval: { start: string; end: string }): Range => ({ gte: offset + parseTime(interval.start, false)!, lt: offset + parseTime(interval.end, true)! });

/** The index fields of a listing's opening hours (inside `internal`); a listing without any has no ranges and never matches. */
export function openHoursFields(schedule: OpeningSchedule) {
  const closure = schedule.temporarily_closed;
  return {
    [OPEN_FIELD_NAMES.zone]: schedule.time_zone,
    [OPEN_FIELD_NAMES.weekly]: DAYS.flatMap((day, weekday) => (schedule.hours[day] ?? []).map((i) => secondsRange(weekday * SECONDS_PER_DAY, i))),
    [OPEN_FIELD_NAMES.specialDates]: schedule.special_hours.map((d) => d.date),
    [OPEN_FIELD_NAMES.special]: schedule.special_hours.flatMap((d) => d.intervals.map((i) => secondsRange(epochDay(d.date) * SECONDS_PER_DAY, i))),
    // Closed from any day up to `until` inclusive; bounds spelt out rather than left open.
    [OPEN_FIELD_NAMES.closedDays]: closure ? { gte: EVER_SINCE, lte: closure.until === null ? FOREVER : epochDay(closure.until) } : null,
  };
}

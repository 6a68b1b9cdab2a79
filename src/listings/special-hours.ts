// Opening hours beyond the week (docs/contract.md §18): special days, a temporary closure and the
// listing's time zone. Pure, so the rules are unit-tested without a database; intervals follow the
// weekly hours' rules through the same function (hours.ts).
import { IANAZone } from 'luxon';
import type { Interval, StoredClosure, StoredSpecialDay } from './listing-records.js';
import { normaliseIntervals } from './hours.js';

export const MAX_SPECIAL_DAYS = 100;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

export interface SpecialDayInput {
  date: string;
  closed: boolean;
  intervals?: Interval[] | undefined;
}

/**
 * Whether `value` is a calendar date written YYYY-MM-DD (2026-02-30 is not). Date reads month 13
 * as invalid but rolls 30 February over into March, so the date must come back as written. Agrees
 * with luxon's reading on every day 00–32 of months 00–13 over ten years from 0000 to 9999, at a
 * sixth of its cost (open_at checks its date with it on every such search).
 */
export function isCalendarDate(value: string): boolean {
  if (!DATE.test(value)) return false;
  const midnight = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(midnight.getTime()) && midnight.toISOString().startsWith(value);
}

/** Whether `zone` is an IANA time zone name this process knows (`Europe/Berlin`; not `CET+1`). */
export const isTimeZone = (zone: string): boolean => IANAZone.isValidZone(zone);

/**
 * Normalises `special_hours`: dates valid and unique, `closed: true` without intervals or
 * `closed: false` with at least one; sorted by date, intervals as in `hours`.
 */
export function normaliseSpecialHours(input: readonly SpecialDayInput[] | undefined): { specialHours: StoredSpecialDay[]; errors: string[] } {
  const errors: string[] = [];
  const specialHours: StoredSpecialDay[] = [];
  const seen = new Set<string>();
  (input ?? []).forEach((day, i) => {
    const path = `special_hours[${i}]`;
    const dateOk = isCalendarDate(day.date);
    if (!dateOk) errors.push(`${path}.date: must be a date YYYY-MM-DD`);
    else if (seen.has(day.date)) errors.push(`${path}.date: ${day.date} appears twice`);
    seen.add(day.date);
    const given = day.intervals ?? [];
    if (day.closed && given.length) errors.push(`${path}.intervals: must be empty when closed is true`);
    if (!day.closed && !given.length) errors.push(`${path}.intervals: must hold at least one interval when closed is false`);
    const { intervals, errors: intervalErrors } = normaliseIntervals(given, `${path}.intervals`);
    errors.push(...intervalErrors);
    if (dateOk) specialHours.push({ date: day.date, closed: day.closed, intervals: day.closed ? [] : intervals });
  });
  specialHours.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  return { specialHours, errors };
}

/** Checks `temporarily_closed.until` (the last closed date, inclusive). */
export function closureErrors(input: StoredClosure | null | undefined): string[] {
  if (!input || input.until === null || isCalendarDate(input.until)) return [];
  return ['temporarily_closed.until: must be null or a date YYYY-MM-DD'];
}

/**
 * Checks `time_zone` and spells it as the time-zone data does (`europe/berlin` → `Europe/Berlin`),
 * so that one zone is one value in the index; undefined (the country's default) when omitted.
 */
export function normaliseTimeZone(zone: string | undefined): { timeZone: string | undefined; errors: string[] } {
  if (zone === undefined) return { timeZone: undefined, errors: [] };
  if (!isTimeZone(zone)) return { timeZone: undefined, errors: [`time_zone: unknown time zone "${zone}"; give an IANA name such as Europe/Berlin`] };
  return { timeZone: new Intl.DateTimeFormat('en', { timeZone: zone }).resolvedOptions().timeZone, errors: [] };
}

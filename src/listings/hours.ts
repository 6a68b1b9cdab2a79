// Opening hours: accepted as HH:MM or HH:MM:SS, returned as HH:MM:SS for all seven days, sorted
// by start (docs/contract.md §4). Pure, so the rules are unit-tested without a database.
import type { Interval, StoredHours } from './listing-records.js';

export const DAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;

const TIME = /^(\d{2}):(\d{2})(?::(\d{2}))?$/;

/** Seconds since midnight, or undefined when not a valid time. `24:00` is allowed only as an end. */
export function parseTime(value: string, isEnd: boolean): number | undefined {
  const m = TIME.exec(value);
  if (!m) return undefined;
  const [h, min, s] = [Number(m[1]), Number(m[2]), Number(m[3] ?? 0)];
  if (h === 24 && min === 0 && s === 0) return isEnd ? 24 * 3600 : undefined;
  if (h > 23 || min > 59 || s > 59) return undefined;
  return h * 3600 + min * 60 + s;
}

export function formatTime(seconds: number): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(Math.floor(seconds / 3600))}:${pad(Math.floor(seconds / 60) % 60)}:${pad(seconds % 60)}`;
}

/**
 * Normalises the intervals of one day (a weekday of `hours`, or a date of `special_hours`):
 * time formats, start < end, no overlaps; every failed check is reported under `path`.
 * An interval never runs past midnight: a business open past midnight sends two (docs/contract.md §4).
 */
export function normaliseIntervals(input: readonly Interval[], path: string): { intervals: Interval[]; errors: string[] } {
  const errors: string[] = [];
  const parsed: { start: number; end: number }[] = [];
  input.forEach((interval, i) => {
    const at = `${path}[${i}]`;
    const start = parseTime(interval.start, false);
    const end = parseTime(interval.end, true);
    if (start === undefined) errors.push(`${at}.start: must be a time HH:MM or HH:MM:SS between 00:00 and 23:59:59`);
    if (end === undefined) errors.push(`${at}.end: must be a time HH:MM or HH:MM:SS between 00:00 and 24:00`);
    if (start === undefined || end === undefined) return;
    if (start >= end) errors.push(`${at}: start must be before end`);
    else parsed.push({ start, end });
  });
  parsed.sort((a, b) => a.start - b.start || a.end - b.end);
  for (let i = 1; i < parsed.length; i++) {
    if (parsed[i]!.start < parsed[i - 1]!.end) {
      errors.push(`${path}: intervals ${formatTime(parsed[i - 1]!.start)}-${formatTime(parsed[i - 1]!.end)} and ${formatTime(parsed[i]!.start)}-${formatTime(parsed[i]!.end)} overlap`);
    }
  }
  return { intervals: parsed.map(({ start, end }) => ({ start: formatTime(start), end: formatTime(end) })), errors };
}

/**
 * Normalises `hours` and reports every failed check with its field path. Unknown day keys are
 * rejected by the request schema already.
 */
export function normaliseHours(input: Partial<Record<string, Interval[]>> | undefined): { hours: StoredHours; errors: string[] } {
  const hours: StoredHours = {};
  const errors: string[] = [];
  for (const day of DAYS) {
    const normalised = normaliseIntervals(input?.[day] ?? [], `hours.${day}`);
    hours[day] = normalised.intervals;
    errors.push(...normalised.errors);
  }
  return { hours, errors };
}

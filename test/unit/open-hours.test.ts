// Open now / open at (docs/contract.md §18): the reference evaluator on the cases the contract
// names, the filter clause against its golden fixture, and a property test that the clause, run
// over the document's fields by a small interpreter of the query DSL, agrees with the reference.
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import t from 'tap';
import { DAYS, formatTime } from '../../src/listings/hours.js';
import { isOpenAt, type ListingHours } from '../../src/listings/open-at.js';
import { openHoursFields } from '../../src/search/open-hours.js';
import { openAtClause } from '../../src/search/query/open-at-query.js';
import { INTERNAL_OBJECT } from '../../src/search/internal-fields.js';

type Hours = ListingHours['hours'];
const at = (iso: string) => new Date(iso);
const noHours = (): Hours => Object.fromEntries(DAYS.map((d) => [d, []]));
const interval = (start: string, end: string) => ({ start: `${start}:00`, end: `${end}:00` });

function listing(overrides: Partial<ListingHours> = {}): ListingHours {
  return { hours: noHours(), special_hours: [], temporarily_closed: null, time_zone: 'Europe/Berlin', ...overrides };
}

/** Mon–Fri 09:00–18:00, Friday night 22:00 until Saturday 02:00, Saturday 10:00–14:00 (Berlin). */
const shop = listing({
  hours: {
    ...noHours(),
    monday: [interval('09:00', '18:00')],
    tuesday: [interval('09:00', '18:00')],
    wednesday: [interval('09:00', '18:00')],
    thursday: [interval('09:00', '18:00')],
    friday: [interval('09:00', '18:00'), interval('22:00', '24:00')],
    saturday: [interval('00:00', '02:00'), interval('10:00', '14:00')],
  },
});

t.test('an interval past midnight, sent as two intervals on two days, is open through the night', async (t) => {
  // 2026-11-20 is a Friday; Berlin is at UTC+1 in November.
  t.equal(isOpenAt(shop, at('2026-11-20T20:59:59Z')), false, 'Friday 21:59:59');
  t.equal(isOpenAt(shop, at('2026-11-20T21:00:00Z')), true, 'Friday 22:00, start inclusive');
  t.equal(isOpenAt(shop, at('2026-11-20T22:59:59Z')), true, 'Friday 23:59:59');
  t.equal(isOpenAt(shop, at('2026-11-20T23:00:00Z')), true, 'Saturday 00:00');
  t.equal(isOpenAt(shop, at('2026-11-21T00:59:59Z')), true, 'Saturday 01:59:59');
  t.equal(isOpenAt(shop, at('2026-11-21T01:00:00Z')), false, 'Saturday 02:00, end exclusive');
});

t.test('spring forward (Berlin, 2026-03-29): the skipped hour never occurs', async (t) => {
  const lateNight = listing({ hours: { ...noHours(), sunday: [interval('00:00', '02:30')] } });
  t.equal(isOpenAt(lateNight, at('2026-03-29T00:30:00Z')), true, '01:30 CET');
  t.equal(isOpenAt(lateNight, at('2026-03-29T00:59:59Z')), true, '01:59:59 CET');
  t.equal(isOpenAt(lateNight, at('2026-03-29T01:00:00Z')), false, 'the next second is 03:00 CEST: 02:00–02:30 never happened');
  const early = listing({ hours: { ...noHours(), sunday: [interval('03:00', '04:00')] } });
  t.equal(isOpenAt(early, at('2026-03-29T00:59:59Z')), false, '01:59:59 CET');
  t.equal(isOpenAt(early, at('2026-03-29T01:00:00Z')), true, '03:00 CEST follows at once');
  t.equal(isOpenAt(early, at('2026-03-29T02:00:00Z')), false, '04:00 CEST');
});

t.test('fall back (Berlin, 2026-10-25): both occurrences of the repeated hour count', async (t) => {
  const repeated = listing({ hours: { ...noHours(), sunday: [interval('02:00', '02:30')] } });
  t.equal(isOpenAt(repeated, at('2026-10-25T00:15:00Z')), true, 'first 02:15 (CEST)');
  t.equal(isOpenAt(repeated, at('2026-10-25T00:45:00Z')), false, 'first 02:45 (CEST)');
  t.equal(isOpenAt(repeated, at('2026-10-25T01:15:00Z')), true, 'second 02:15 (CET)');
  t.equal(isOpenAt(repeated, at('2026-10-25T01:45:00Z')), false, 'second 02:45 (CET)');
  t.equal(isOpenAt(repeated, at('2026-10-25T02:15:00Z')), false, '03:15 CET');
});

t.test('a holiday closing replaces the weekly hours of its date only', async (t) => {
  const holiday = { ...shop, special_hours: [{ date: '2026-12-24', closed: true, intervals: [] }] };
  t.equal(isOpenAt(holiday, at('2026-12-24T09:00:00Z')), false, 'Thursday 24 December 10:00');
  t.equal(isOpenAt(holiday, at('2026-12-23T09:00:00Z')), true, 'Wednesday 23 December 10:00');
});

t.test('a holiday with special intervals opens only then, even a listing without weekly hours', async (t) => {
  const newYearsEve = [{ date: '2026-12-31', closed: false, intervals: [interval('10:00', '14:00')] }];
  const short = { ...shop, special_hours: newYearsEve };
  t.equal(isOpenAt(short, at('2026-12-31T10:00:00Z')), true, '11:00');
  t.equal(isOpenAt(short, at('2026-12-31T14:00:00Z')), false, '15:00: the weekly 09–18 does not apply');
  const onlySpecial = listing({ special_hours: newYearsEve });
  t.equal(isOpenAt(onlySpecial, at('2026-12-31T10:00:00Z')), true);
  t.equal(isOpenAt(onlySpecial, at('2026-12-30T10:00:00Z')), false);
});

t.test('a temporary closure ends after its until date (inclusive); until null closes for good', async (t) => {
  const closedUntilTomorrow = { ...shop, temporarily_closed: { until: '2026-11-21' } };
  t.equal(isOpenAt(closedUntilTomorrow, at('2026-11-20T10:00:00Z')), false, 'today, Friday 11:00');
  t.equal(isOpenAt(closedUntilTomorrow, at('2026-11-21T10:00:00Z')), false, 'tomorrow, Saturday 11:00: until is inclusive');
  t.equal(isOpenAt(closedUntilTomorrow, at('2026-11-23T10:00:00Z')), true, 'Monday 11:00');
  t.equal(isOpenAt({ ...shop, temporarily_closed: { until: null } }, at('2026-11-23T10:00:00Z')), false);
});

t.test('a listing without hours is never open', async (t) => {
  t.equal(isOpenAt(listing(), at('2026-11-23T10:00:00Z')), false);
});

t.test("hours are read on the listing's own wall clock", async (t) => {
  const newYork = listing({ time_zone: 'America/New_York', hours: { ...noHours(), monday: [interval('09:00', '17:00')] } });
  t.equal(isOpenAt(newYork, at('2026-11-23T13:59:59Z')), false, '08:59:59 EST');
  t.equal(isOpenAt(newYork, at('2026-11-23T14:00:00Z')), true, '09:00 EST');
  t.equal(isOpenAt(newYork, at('2026-11-23T21:59:59Z')), true, '16:59:59 EST');
});

t.test('the open-at clause matches its fixture', async (t) => {
  const fixture = JSON.parse(readFileSync(new URL('../fixtures/queries/open-at.json', import.meta.url), 'utf8'));
  // Friday 2026-11-20 23:30 in Berlin, 17:30 in New York; zones sorted and deduplicated.
  t.same(openAtClause(at('2026-11-20T22:30:00Z'), ['Europe/Berlin', 'America/New_York', 'Europe/Berlin']), fixture);
  t.same(openAtClause(at('2026-11-20T22:30:00Z'), []), { match_none: {} }, 'no zone: no listing, never every listing');
});

// ---- A small interpreter of the query DSL the clause uses, over one document's fields ----

type Doc = Record<string, unknown>;
type RangeValue = { gte?: number; gt?: number; lte?: number; lt?: number };

function termMatches(stored: unknown, value: unknown): boolean {
  if (stored === null || stored === undefined) return false;
  if (Array.isArray(stored)) return stored.some((s) => termMatches(s, value));
  if (typeof stored === 'object') {
    // A range field: a term matches when the range contains it (OpenSearch range field types).
    const r = stored as RangeValue;
    const v = value as number;
    return (r.gte === undefined || v >= r.gte) && (r.gt === undefined || v > r.gt) && (r.lte === undefined || v <= r.lte) && (r.lt === undefined || v < r.lt);
  }
  return stored === value;
}

function matches(clause: Record<string, unknown>, doc: Doc): boolean {
  const [[kind, body]] = Object.entries(clause) as [[string, Record<string, unknown>]];
  switch (kind) {
    case 'match_none':
      return false;
    case 'term': {
      const [field, value] = Object.entries(body)[0]!;
      // `doc` is the document's `internal` object, which holds the opening-hours fields.
      return termMatches(doc[field.slice(`${INTERNAL_OBJECT}.`.length)], value);
    }
    case 'bool': {
      const list = (name: string) => (body[name] ?? []) as Record<string, unknown>[];
      const required = [...list('filter'), ...list('must')];
      if (!required.every((c) => matches(c, doc))) return false;
      if (list('must_not').some((c) => matches(c, doc))) return false;
      const should = list('should');
      const minimum = (body.minimum_should_match as number | undefined) ?? (required.length ? 0 : Math.min(1, should.length));
      return should.filter((c) => matches(c, doc)).length >= minimum;
    }
    default:
      throw new Error(`the interpreter does not know ${kind}`);
  }
}

t.test('the interpreter agrees with OpenSearch on the cases above', async (t) => {
  // Spot checks that the interpreter reads the clause as OpenSearch does, before it judges it.
  const zones = ['Europe/Berlin', 'America/New_York'];
  for (const iso of ['2026-11-20T21:00:00Z', '2026-11-21T01:00:00Z', '2026-11-21T00:59:59Z', '2026-11-20T12:00:00Z']) {
    t.equal(matches(openAtClause(at(iso), zones), openHoursFields(shop)), isOpenAt(shop, at(iso)), iso);
  }
  t.equal(matches(openAtClause(at('2026-11-23T10:00:00Z'), ['America/New_York']), openHoursFields(shop)), false, 'a zone the listing is not in');
});

t.test('a clause built once serves its own second only', async (t) => {
  // openAtClause remembers recent clauses by second: asked in this order, a coarser key would
  // answer 18:00:00 with 17:59:59's clause and call the shop open after it closed.
  const doc = openHoursFields(shop);
  const zones = ['Europe/Berlin'];
  t.equal(matches(openAtClause(at('2026-11-20T16:59:59.000Z'), zones), doc), true, 'Friday 17:59:59 in Berlin: open');
  t.equal(matches(openAtClause(at('2026-11-20T16:59:59.999Z'), zones), doc), true, 'Friday 17:59:59.999: the same second, still open');
  t.equal(matches(openAtClause(at('2026-11-20T17:00:00.000Z'), zones), doc), false, 'Friday 18:00:00: closed');
  // Berlin's clause of 17:59:59 matches the shop; New York's of the same second must not.
  t.equal(matches(openAtClause(at('2026-11-20T16:59:59.000Z'), ['America/New_York']), doc), false, 'the same second over other zones: their own clause');
});

// ---- Property: the clause over the document agrees with the reference, DST weeks included ----

const HALF_HOUR = 1800;
/** A day's intervals: sorted distinct half-hour boundaries, paired up (non-overlapping by construction). */
const dayIntervals = fc.uniqueArray(fc.integer({ min: 0, max: 48 }), { maxLength: 6 }).map((points) => {
  const sorted = [...points].sort((a, b) => a - b);
  const out: { start: string; end: string }[] = [];
  for (let i = 0; i + 1 < sorted.length; i += 2) out.push({ start: formatTime(sorted[i]! * HALF_HOUR), end: formatTime(sorted[i + 1]! * HALF_HOUR) });
  return out;
});

/** Days of the two DST weeks of 2026 in Europe and the US (US: 2026-03-08 and 2026-11-01). */
const WINDOWS = [
  { from: Date.UTC(2026, 2, 6), days: 26 }, // 6 March – 1 April: US and EU spring forward
  { from: Date.UTC(2026, 9, 22), days: 12 }, // 22 October – 3 November: EU and US fall back
];
const windowDates = WINDOWS.flatMap(({ from, days }) => Array.from({ length: days }, (_, i) => new Date(from + i * 86_400_000).toISOString().slice(0, 10)));

const schedule: fc.Arbitrary<ListingHours> = fc.record({
  hours: fc.tuple(...DAYS.map(() => dayIntervals)).map((days) => Object.fromEntries(DAYS.map((d, i) => [d, days[i]!]))),
  special_hours: fc
    .uniqueArray(fc.record({ date: fc.constantFrom(...windowDates), closed: fc.boolean(), intervals: dayIntervals }), { selector: (d) => d.date, maxLength: 8 })
    .map((days) => days.flatMap((d) => (d.closed ? [{ ...d, intervals: [] }] : d.intervals.length ? [d] : []))),
  temporarily_closed: fc.oneof(
    { weight: 4, arbitrary: fc.constant(null) },
    { weight: 1, arbitrary: fc.constant({ until: null }) },
    { weight: 2, arbitrary: fc.constantFrom(...windowDates).map((until) => ({ until })) },
  ),
  time_zone: fc.constantFrom('Europe/Berlin', 'America/New_York'),
});

/** Instants on quarter hours of the windows, a second either side sometimes: boundaries are where mistakes live. */
const instant = fc.tuple(fc.constantFrom(...WINDOWS), fc.nat(), fc.constantFrom(-1000, 0, 0, 1000)).map(([w, n, nudge]) => new Date(w.from + (n % (w.days * 96)) * 15 * 60_000 + nudge));

t.test('the OpenSearch clause over the document agrees with the reference evaluator', async (t) => {
  const zones = ['Europe/Berlin', 'America/New_York'];
  fc.assert(
    fc.property(schedule, fc.array(instant, { minLength: 1, maxLength: 20 }), (hours, instants) => {
      const doc = JSON.parse(JSON.stringify(openHoursFields(hours))) as Doc; // as OpenSearch receives it
      return instants.every((i) => matches(openAtClause(i, zones), doc) === isOpenAt(hours, i));
    }),
    { seed: 20261123, numRuns: 500 },
  );
  t.pass('500 schedules × up to 20 instants agree');
});

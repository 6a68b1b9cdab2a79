// open_now / open_at against the real index (docs/contract.md §18): listings with the hour cases
// the contract names, asked at chosen instants, and a property check against the reference
// evaluator (src/listings/open-at.ts). Instants must lie within 366 days of now, so the dates are
// computed from today: the next Friday night, the next spring and autumn clock changes, and so on.
import { DateTime } from 'luxon';
import t, { type Test } from 'tap';
import { DAYS, formatTime } from '../../src/listings/hours.js';
import { isOpenAt, type ListingHours } from '../../src/listings/open-at.js';
import type { ListingInput } from '../../src/schemas/listing.js';
import { build, eventually, listingInput, refreshEveryCopy, runId, startIndexer } from '../helper.js';

// Zones are asked of the index on every search here, so a New York listing counts at once.
const { app, deps, partner } = await build(t, { config: { OPEN_ZONES_TTL_MS: 0 } });
await startIndexer(t, deps);
const owner = await partner();

const BERLIN = 'Europe/Berlin';
const word = (salt: string) => `${salt}${runId}`.replace(/\d/g, (d) => 'qwrtzpsdfg'[Number(d)]!).replace(/[^a-z]/g, 'x');
const zip = String(10000 + Math.floor(Math.random() * 80000));
type Hours = NonNullable<ListingInput['hours']>;
const interval = (start: string, end: string) => ({ start, end });
const allWeek = (start: string, end: string): Hours => Object.fromEntries(DAYS.map((d) => [d, [interval(start, end)]]));

async function create(place: string, overrides: Partial<ListingInput>) {
  const res = await app.inject({ method: 'POST', url: '/de/listings', headers: owner.auth, payload: listingInput({ place, zip, phones: [], ...overrides }) });
  if (res.statusCode !== 201) throw new Error(`create failed: ${res.body}`);
  return res.json() as { id: string } & ListingHours;
}

const search = (query: string) => app.inject({ url: `/de/listings?${query}`, headers: owner.auth });
/** Ids in the search's order: by listing id, numerically. */
const byId = (ids: string[]) => ids.sort((a, b) => Number(a) - Number(b));
const inPlace = (place: string) => `street=*&place=${encodeURIComponent(place)}&postCode=${zip}&limit=50`;

/** Ids of the listings of `place` open at `instant`, through the filtered search. */
async function openIds(place: string, instant: DateTime): Promise<string[]> {
  const res = await search(`${inPlace(place)}&open_at=${encodeURIComponent(instant.toISO()!)}`);
  if (res.statusCode !== 200) throw new Error(`search failed: ${res.body}`);
  return byId((res.json().listings as { id: string }[]).map((l) => l.id));
}

async function searchable(place: string, count: number) {
  await eventually(
    async () => {
      const res = await search(inPlace(place));
      return res.statusCode === 200 && res.json().numFound === count ? true : undefined;
    },
    10_000,
    `${count} listings in ${place}`,
  );
  await refreshEveryCopy(deps, 'de');
}

// ---- Dates from today (Berlin) ----
const today = DateTime.now().setZone(BERLIN).startOf('day');
/** The first day from today + 2 with this weekday (1 = Monday). */
const next = (weekday: number) => today.plus({ days: 2 + ((weekday - today.plus({ days: 2 }).weekday + 7) % 7) });
const friday = next(5);
const tuesday = next(2);
const wednesday = next(3);
const thursday = next(4);
const localAt = (day: DateTime, hour: number, minute = 0) => day.set({ hour, minute, second: 0, millisecond: 0 });

/**
 * The next instant within 365 days at which Berlin's UTC offset rises (spring) or falls (autumn);
 * undefined when it lies further out (the same change can be 371 days after the last one), and the
 * test that needs it is skipped: open_at answers only within 366 days of now.
 */
function nextClockChange(direction: 'forward' | 'back'): DateTime | undefined {
  let at = DateTime.now().toUTC().startOf('hour').plus({ hours: 1 });
  for (let i = 0; i < 365 * 24; i++) {
    const before = at.setZone(BERLIN).offset;
    const after = at.plus({ hours: 1 }).setZone(BERLIN).offset;
    if (direction === 'forward' ? after > before : after < before) return at.plus({ hours: 1 }).setZone(BERLIN);
    at = at.plus({ hours: 1 });
  }
  return undefined;
}
const springChange = nextClockChange('forward'); // 03:00 CEST, the second after 01:59:59 CET
const autumnChange = nextClockChange('back'); // 02:00 CET, the second after 02:59:59 CEST
const dayKey = (instant: DateTime) => DAYS[instant.weekday - 1]!;
/** Hours on the weekday of `change` only, none without it. */
const onDayOf = (change: DateTime | undefined, start: string, end: string): Hours => (change ? { [dayKey(change)]: [interval(start, end)] } : {});

// ---- The named cases ----
const town = `Uhrdorf ${word('u')}`;
const nightBar = await create(town, { name: `Nachtbar ${runId}`, hours: { friday: [interval('22:00', '24:00')], saturday: [interval('00:00', '02:00')] } });
const office = await create(town, {
  name: `Amt ${runId}`,
  hours: {
    monday: [interval('09:00', '18:00')],
    tuesday: [interval('09:00', '18:00')],
    wednesday: [interval('09:00', '18:00')],
    thursday: [interval('09:00', '18:00')],
    friday: [interval('09:00', '18:00')],
  },
  special_hours: [
    { date: tuesday.toISODate()!, closed: true },
    { date: wednesday.toISODate()!, closed: false, intervals: [interval('10:00', '12:00')] },
  ],
});
const onlySpecial = await create(town, { name: `Markt ${runId}`, hours: {}, special_hours: [{ date: wednesday.toISODate()!, closed: false, intervals: [interval('10:00', '12:00')] }] });
const closedTillTomorrow = await create(town, { name: `Umbau ${runId}`, hours: allWeek('00:00', '24:00'), temporarily_closed: { until: today.plus({ days: 1 }).toISODate()! } });
const alwaysOpen = await create(town, { name: `Tankstelle ${runId}`, hours: allWeek('00:00', '24:00') });
const noHours = await create(town, { name: `Ohne ${runId}`, hours: {} });
const newYork = await create(town, {
  name: `Deli ${runId}`,
  time_zone: 'America/New_York',
  hours: {
    monday: [interval('09:00', '17:00')],
    tuesday: [interval('09:00', '17:00')],
    wednesday: [interval('09:00', '17:00')],
    thursday: [interval('09:00', '17:00')],
    friday: [interval('09:00', '17:00')],
  },
});
const springBar = await create(town, { name: `Fruehling ${runId}`, hours: onDayOf(springChange, '00:00', '02:30') });
const autumnBar = await create(town, { name: `Herbst ${runId}`, hours: onDayOf(autumnChange, '02:00', '02:30') });
const named = [nightBar, office, onlySpecial, closedTillTomorrow, alwaysOpen, noHours, newYork, springBar, autumnBar];
await searchable(town, named.length);

/** Every named listing the reference evaluator calls open at `instant`: what the search must return. */
const expectedOpen = (instant: DateTime) => byId(named.filter((l) => isOpenAt(l, instant.toJSDate())).map((l) => l.id));

/** Asserts the search's answer, and that the reference agrees on the listings named in `open` and `closed`. */
async function check(t: Test, what: string, instant: DateTime, open: { id: string }[], closed: { id: string }[]) {
  const ids = await openIds(town, instant);
  t.same(ids, expectedOpen(instant), `${what} (${instant.toISO()}): the search agrees with the reference`);
  for (const l of open) t.ok(ids.includes(l.id), `${what}: ${l.id} open`);
  for (const l of closed) t.notOk(ids.includes(l.id), `${what}: ${l.id} closed`);
}

t.test('an interval past midnight: open from Friday 22:00 until Saturday 02:00 (end exclusive)', async (t) => {
  await check(t, 'Friday 21:59', localAt(friday, 21, 59), [], [nightBar]);
  await check(t, 'Friday 22:00', localAt(friday, 22), [nightBar], []);
  await check(t, 'Saturday 00:30', localAt(friday.plus({ days: 1 }), 0, 30), [nightBar], []);
  await check(t, 'Saturday 02:00', localAt(friday.plus({ days: 1 }), 2), [], [nightBar]);
});

t.test('special hours: a holiday closing, a short day, and a listing opened only by a special day', async (t) => {
  await check(t, 'holiday Tuesday 11:00', localAt(tuesday, 11), [alwaysOpen], [office]);
  await check(t, 'short Wednesday 11:00', localAt(wednesday, 11), [office, onlySpecial], []);
  await check(t, 'short Wednesday 15:00', localAt(wednesday, 15), [], [office, onlySpecial]);
  await check(t, 'ordinary Thursday 11:00', localAt(thursday, 11), [office], [onlySpecial]);
});

t.test('a temporary closure lasts through its until date; a listing without hours never opens', async (t) => {
  await check(t, 'tomorrow 12:00', localAt(today.plus({ days: 1 }), 12), [alwaysOpen], [closedTillTomorrow, noHours]);
  await check(t, 'the day after tomorrow 12:00', localAt(today.plus({ days: 2 }), 12), [closedTillTomorrow, alwaysOpen], [noHours]);
});

t.test('each listing is read on its own wall clock', async (t) => {
  // Thursday 09:30 and 08:30 in New York are 14:30–15:30 in Berlin (5 or 6 hours later, as the
  // two zones' clock changes fall on different Sundays): the Berlin office is open at both.
  const newYorkAt = (hour: number) => DateTime.fromObject({ year: thursday.year, month: thursday.month, day: thursday.day, hour, minute: 30 }, { zone: 'America/New_York' });
  await check(t, 'Thursday 09:30 in New York', newYorkAt(9), [office, newYork], []);
  await check(t, 'Thursday 08:30 in New York', newYorkAt(8), [office], [newYork]);
});

const noChange = 'no such clock change within 365 days of now';

t.test('spring forward: the skipped half hour of 00:00-02:30 never occurs', { skip: springChange ? false : noChange }, async (t) => {
  const change = springChange!;
  await check(t, 'one second before the change (01:59:59 CET)', change.minus({ seconds: 1 }), [springBar], []);
  await check(t, 'the change (03:00 CEST)', change, [], [springBar]);
});

t.test('fall back: 02:00-02:30 is open in both occurrences of the repeated hour', { skip: autumnChange ? false : noChange }, async (t) => {
  // The change is the second 02:00 (CET); the first 02:00 (CEST) was an hour earlier.
  const change = autumnChange!;
  await check(t, 'first 02:15', change.minus({ minutes: 45 }), [autumnBar], []);
  await check(t, 'first 02:45', change.minus({ minutes: 15 }), [], [autumnBar]);
  await check(t, 'second 02:15', change.plus({ minutes: 15 }), [autumnBar], []);
  await check(t, 'second 02:45', change.plus({ minutes: 45 }), [], [autumnBar]);
});

t.test('open_now, Solr mode and paging count only open listings', async (t) => {
  const now = await search(`${inPlace(town)}&open_now=true`);
  t.equal(now.statusCode, 200);
  const nowIds = (now.json().listings as { id: string }[]).map((l) => l.id);
  t.ok(nowIds.includes(alwaysOpen.id), 'open around the clock');
  t.notOk(nowIds.includes(closedTillTomorrow.id), 'closed until tomorrow');
  t.notOk(nowIds.includes(noHours.id), 'no hours');

  const instant = localAt(wednesday, 11);
  const expected = expectedOpen(instant);
  const paged = await search(`${inPlace(town).replace('&limit=50', '')}&limit=1&offset=1&open_at=${encodeURIComponent(instant.toISO()!)}`);
  t.equal(paged.statusCode, 200);
  t.equal(paged.json().numFound, expected.length, 'numFound counts open listings only');
  t.same(
    paged.json().listings.map((l: { id: string }) => l.id),
    [expected[1]],
    'the second open listing by id',
  );

  // Cursor paging: every page names the same query, the open_at filter and its instant included.
  const openAt = `${inPlace(town).replace('&limit=50', '')}&limit=1&open_at=${encodeURIComponent(instant.toISO()!)}`;
  const walked: string[] = [];
  let page = await search(openAt);
  for (let i = 0; page.statusCode === 200 && i <= expected.length; i++) {
    walked.push(...(page.json().listings as { id: string }[]).map((l) => l.id));
    const next = page.json().next as string | undefined;
    if (!next) break;
    page = await search(`${openAt}&cursor=${next}`);
  }
  t.equal(page.statusCode, 200);
  t.same(walked, expected, 'the cursor walks every open listing once, in order');
  const first = (await search(openAt)).json().next as string;
  const withoutFilter = await search(`${inPlace(town).replace('&limit=50', '')}&limit=1&cursor=${first}`);
  t.equal(withoutFilter.statusCode, 400, 'its cursor belongs to the open_at query, not to the same search without it');

  const solr = await search(`solr=true&where=${encodeURIComponent(`"${town}"`)}&limit=50&open_at=${encodeURIComponent(instant.toISO()!)}`);
  t.equal(solr.statusCode, 200);
  t.same(byId((solr.json().listings as { lid: number }[]).map((l) => String(l.lid))), expected);
});

// ---- Property: random hours through the real index agree with the reference ----

/** mulberry32: a small seeded PRNG, so a failure can be replayed. */
function prng(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let r = Math.imul(a ^ (a >>> 15), 1 | a);
    r = (r + Math.imul(r ^ (r >>> 7), 61 | r)) ^ r;
    return ((r ^ (r >>> 14)) >>> 0) / 4294967296;
  };
}
const random = prng(20261123);
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;

/** Non-overlapping intervals of one day on half-hour boundaries, some ending at 24:00. */
function randomDay() {
  const points = [...new Set(Array.from({ length: Math.floor(random() * 5) }, () => Math.floor(random() * 49)))].sort((a, b) => a - b);
  const intervals = [];
  for (let i = 0; i + 1 < points.length; i += 2) intervals.push(interval(formatTime(points[i]! * 1800), formatTime(points[i + 1]! * 1800)));
  return intervals;
}
const nextDays = Array.from({ length: 14 }, (_, i) => today.plus({ days: i }).toISODate()!);

function randomHours(): Partial<ListingInput> {
  const special = [...new Set(Array.from({ length: Math.floor(random() * 4) }, () => pick(nextDays)))].map((date) => {
    const intervals = randomDay();
    return random() < 0.4 || intervals.length === 0 ? { date, closed: true } : { date, closed: false, intervals };
  });
  const closure = random();
  return {
    hours: Object.fromEntries(DAYS.map((d) => [d, randomDay()])),
    special_hours: special,
    temporarily_closed: closure < 0.7 ? null : closure < 0.8 ? { until: null } : { until: pick(nextDays) },
    time_zone: pick([BERLIN, 'America/New_York']),
  };
}

t.test('30 random listings × 20 random instants: the index agrees with the reference evaluator', async (t) => {
  const randomTown = `Zufall ${word('z')}`;
  const listings = [];
  for (let i = 0; i < 30; i++) listings.push(await create(randomTown, { name: `Zufall ${i} ${runId}`, ...randomHours() }));
  await searchable(randomTown, listings.length);
  for (let i = 0; i < 20; i++) {
    // Quarter hours of the next two weeks, a second early now and then: boundaries are where mistakes live.
    const instant = DateTime.fromMillis(today.toMillis() + Math.floor(random() * 14 * 96) * 15 * 60_000 - (random() < 0.3 ? 1000 : 0)).setZone(BERLIN);
    const expected = byId(listings.filter((l) => isOpenAt(l, instant.toJSDate())).map((l) => l.id));
    t.same(await openIds(randomTown, instant), expected, `open at ${instant.toISO()}`);
  }
});

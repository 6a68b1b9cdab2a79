import t from 'tap';
import { closureErrors, isCalendarDate, normaliseSpecialHours, normaliseTimeZone } from '../../src/listings/special-hours.js';
import { defaultTimeZone } from '../../src/platform/config.js';

t.test('special hours are sorted by date, intervals normalised like weekly hours, closed days without intervals', async (t) => {
  const { specialHours, errors } = normaliseSpecialHours([
    {
      date: '2026-12-31',
      closed: false,
      intervals: [
        { start: '14:00', end: '16:00' },
        { start: '10:00', end: '12:00' },
      ],
    },
    { date: '2026-12-24', closed: true },
  ]);
  t.same(errors, []);
  t.same(specialHours, [
    { date: '2026-12-24', closed: true, intervals: [] },
    {
      date: '2026-12-31',
      closed: false,
      intervals: [
        { start: '10:00:00', end: '12:00:00' },
        { start: '14:00:00', end: '16:00:00' },
      ],
    },
  ]);
});

t.test('closed true xor intervals, unique real dates; every failed check named by its path', async (t) => {
  const { errors } = normaliseSpecialHours([
    { date: '2026-12-24', closed: true, intervals: [{ start: '10:00', end: '12:00' }] },
    { date: '2026-12-25', closed: false },
    { date: '2026-12-25', closed: false, intervals: [] },
    { date: '2026-02-30', closed: true },
    { date: '24.12.2026', closed: true },
  ]);
  t.same(errors, [
    'special_hours[0].intervals: must be empty when closed is true',
    'special_hours[1].intervals: must hold at least one interval when closed is false',
    'special_hours[2].date: 2026-12-25 appears twice',
    'special_hours[2].intervals: must hold at least one interval when closed is false',
    'special_hours[3].date: must be a date YYYY-MM-DD',
    'special_hours[4].date: must be a date YYYY-MM-DD',
  ]);
});

t.test("special intervals follow the weekly hours' rules: formats, start before end, no overlap, 24:00 only as an end", async (t) => {
  const { errors } = normaliseSpecialHours([
    {
      date: '2026-12-24',
      closed: false,
      intervals: [
        { start: '24:00', end: '24:00' },
        { start: '18:00', end: '09:00' },
      ],
    },
    {
      date: '2026-12-31',
      closed: false,
      intervals: [
        { start: '10:00', end: '14:00' },
        { start: '13:00', end: '24:00' },
      ],
    },
  ]);
  t.same(errors, [
    'special_hours[0].intervals[0].start: must be a time HH:MM or HH:MM:SS between 00:00 and 23:59:59',
    'special_hours[0].intervals[1]: start must be before end',
    'special_hours[1].intervals: intervals 10:00:00-14:00:00 and 13:00:00-24:00:00 overlap',
  ]);
});

t.test('temporarily_closed: null, until null, or until a real date', async (t) => {
  t.same(closureErrors(null), []);
  t.same(closureErrors(undefined), []);
  t.same(closureErrors({ until: null }), []);
  t.same(closureErrors({ until: '2026-12-31' }), []);
  t.same(closureErrors({ until: '2026-13-01' }), ['temporarily_closed.until: must be null or a date YYYY-MM-DD']);
});

t.test('time_zone must be an IANA name; each enabled country has a default', async (t) => {
  t.same(normaliseTimeZone(undefined), { timeZone: undefined, errors: [] });
  t.same(normaliseTimeZone('America/New_York'), { timeZone: 'America/New_York', errors: [] });
  t.same(normaliseTimeZone('europe/berlin'), { timeZone: 'Europe/Berlin', errors: [] }, 'spelt as the time-zone data does');
  t.same(normaliseTimeZone('Mars/Olympus_Mons').errors, ['time_zone: unknown time zone "Mars/Olympus_Mons"; give an IANA name such as Europe/Berlin']);
  t.equal(defaultTimeZone('de'), 'Europe/Berlin');
  t.equal(defaultTimeZone('at'), 'Europe/Vienna');
  t.equal(defaultTimeZone('ch'), 'Europe/Zurich');
  t.ok(isCalendarDate('2028-02-29'));
  t.notOk(isCalendarDate('2026-02-29'));
});

import t from 'tap';
import { formatTime, normaliseHours, parseTime } from '../../src/listings/hours.js';

t.test('parseTime accepts HH:MM and HH:MM:SS, 24:00 only as an end', async (t) => {
  t.equal(parseTime('08:30', false), 8 * 3600 + 30 * 60);
  t.equal(parseTime('23:59:59', false), 86399);
  t.equal(parseTime('24:00', true), 86400);
  t.equal(parseTime('24:00', false), undefined);
  t.equal(parseTime('24:01', true), undefined);
  t.equal(parseTime('8:30', false), undefined);
  t.equal(parseTime('12:60', false), undefined);
  t.equal(parseTime('12:00:60', false), undefined);
});

t.test('formatTime pads to HH:MM:SS', async (t) => {
  t.equal(formatTime(0), '00:00:00');
  t.equal(formatTime(86400), '24:00:00');
  t.equal(formatTime(3661), '01:01:01');
});

t.test('normaliseHours fills all seven days, sorts and formats', async (t) => {
  const { hours, errors } = normaliseHours({
    tuesday: [
      { start: '14:00', end: '18:00' },
      { start: '08:00', end: '12:00' },
    ],
  });
  t.same(errors, []);
  t.same(Object.keys(hours), ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday']);
  t.same(hours.tuesday, [
    { start: '08:00:00', end: '12:00:00' },
    { start: '14:00:00', end: '18:00:00' },
  ]);
  t.same(hours.monday, []);
});

t.test('touching intervals are fine, overlapping ones are not', async (t) => {
  t.same(
    normaliseHours({
      monday: [
        { start: '08:00', end: '12:00' },
        { start: '12:00', end: '13:00' },
      ],
    }).errors,
    [],
  );
  t.same(
    normaliseHours({
      monday: [
        { start: '08:00', end: '12:00' },
        { start: '09:00', end: '10:00' },
      ],
    }).errors,
    ['hours.monday: intervals 08:00:00-12:00:00 and 09:00:00-10:00:00 overlap'],
  );
});

t.test('every bad interval is reported with its path', async (t) => {
  const { errors } = normaliseHours({ monday: [{ start: 'x', end: '10:00' }], sunday: [{ start: '10:00', end: '10:00' }] });
  t.same(errors, ['hours.monday[0].start: must be a time HH:MM or HH:MM:SS between 00:00 and 23:59:59', 'hours.sunday[0]: start must be before end']);
});

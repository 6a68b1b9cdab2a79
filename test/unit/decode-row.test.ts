import t from 'tap';
import { decodeRow } from '../../src/db/decode-row.js';
import { listings } from '../../src/db/schema.js';

// A listings row as node-postgres hands it over under drizzle's type parsers: bigints and
// timestamps as text, jsonb and arrays already parsed.
const raw = {
  id: '42',
  country: 'de',
  name: 'Bäckerei',
  address: 'Hauptstraße 1',
  zip: '10115',
  place: 'Berlin',
  latitude: 52.5,
  longitude: null,
  keywords: ['Brot'],
  description: null,
  hours: { monday: [{ start: '08:00:00', end: '12:00:00' }] },
  contact: null,
  active: true,
  suppressed: false,
  boost: 1,
  created_by: '7',
  claimed_by: '7',
  version: '1',
  created_at: '2026-11-27 11:00:00.123+00',
  updated_at: '2026-11-27 11:00:00.123+00',
  deleted_at: null,
  special_hours: [],
  temporarily_closed: { until: null },
  time_zone: null,
};

t.test('decodes each column under its property name, through its own decoder', async (t) => {
  const row = decodeRow(listings, raw);
  t.equal(row.id, 42, 'a bigint in number mode');
  t.equal(row.createdBy, 7);
  t.equal(row.version, 1);
  t.ok(row.createdAt instanceof Date && row.createdAt.toISOString() === '2026-11-27T11:00:00.123Z', 'a timestamp with its zone');
  t.equal(row.deletedAt, null, 'null stays null');
  t.same(row.hours, raw.hours);
  t.same(row.temporarilyClosed, { until: null });
  t.equal(row.longitude, null);
  t.notOk('created_at' in row, 'stored names are not kept');
});

t.test("a row without one of the table's columns is refused", async (t) => {
  const { time_zone: _omitted, ...partial } = raw;
  t.throws(() => decodeRow(listings, partial), /listings without its column time_zone/);
});

// The hours fields of docs/contract.md §18 on the Listing (GET, PUT as full replacement) and the
// open_now / open_at parameters' own rules. Which listings match is test/integration/open-hours.test.ts.
import t from 'tap';
import { build, listingInput } from '../helper.js';

const { app, partner } = await build(t);
const { auth } = await partner();

const hours = {
  special_hours: [
    {
      date: '2026-12-31',
      closed: false,
      intervals: [
        { start: '14:00', end: '16:00' },
        { start: '10:00', end: '12:00' },
      ],
    },
    { date: '2026-12-24', closed: true },
  ],
  temporarily_closed: { until: '2026-12-01' },
  time_zone: 'America/New_York',
};

t.test('special hours, closure and zone are stored, normalised and returned', async (t) => {
  const created = await app.inject({ method: 'POST', url: '/de/listings', headers: auth, payload: listingInput(hours) });
  t.equal(created.statusCode, 201);
  const res = await app.inject({ url: `/de/listings/${created.json().id}`, headers: auth });
  t.equal(res.statusCode, 200);
  const listing = res.json();
  t.same(listing.special_hours, [
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
  t.same(listing.temporarily_closed, { until: '2026-12-01' });
  t.equal(listing.time_zone, 'America/New_York');
});

t.test("PUT is a full replacement: omitted hours fields are cleared, the zone falls back to the country's", async (t) => {
  const created = await app.inject({ method: 'POST', url: '/de/listings', headers: auth, payload: listingInput({ ...hours, temporarily_closed: { until: null } }) });
  t.equal(created.statusCode, 201);
  t.same(created.json().temporarily_closed, { until: null });
  const res = await app.inject({ method: 'PUT', url: `/de/listings/${created.json().id}`, headers: auth, payload: listingInput() });
  t.equal(res.statusCode, 200);
  t.same(res.json().special_hours, []);
  t.equal(res.json().temporarily_closed, null);
  t.equal(res.json().time_zone, 'Europe/Berlin');
});

t.test("a listing of another country defaults to that country's zone", async (t) => {
  const res = await app.inject({ method: 'POST', url: '/at/listings', headers: auth, payload: listingInput({ categories: [{ id: 'shop/bakery' }] }) });
  t.equal(res.statusCode, 201);
  t.equal(res.json().time_zone, 'Europe/Vienna');
});

t.test('open_now and open_at: not both, an offset required, within 366 days', async (t) => {
  const search = async (query: string) => {
    const res = await app.inject({ url: `/de/listings?phone=%2B493012345678&${query}`, headers: auth });
    t.equal(res.statusCode, 400, query);
    t.equal(res.json().type, 'validation');
    return res.json().details as string[];
  };
  const soon = new Date(Date.now() + 86_400_000).toISOString();
  t.same(await search(`open_now=true&open_at=${encodeURIComponent(soon)}`), ['open_now, open_at: give one or neither']);
  t.same(await search(`open_at=${soon.slice(0, 19)}`), ['open_at: must be an ISO 8601 date and time with an offset, e.g. 2026-12-24T18:30:00+01:00']);
  const tooLate = new Date(Date.now() + 367 * 86_400_000).toISOString();
  t.same(await search(`open_at=${encodeURIComponent(tooLate)}`), ['open_at: must be within 366 days of now']);
  const tooEarly = new Date(Date.now() - 367 * 86_400_000).toISOString();
  t.same(await search(`open_at=${encodeURIComponent(tooEarly)}`), ['open_at: must be within 366 days of now'], 'the window runs both ways');
});

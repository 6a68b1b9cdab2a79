import { readFileSync } from 'node:fs';
import t from 'tap';
import { buildListingDocument } from '../../indexer/listing-document.js';
import type { Listing } from '../../src/listings/listing-view.js';

const listing: Listing = {
  id: '1042',
  name: 'Bäckerei Müller',
  address: 'Hauptstraße 12a',
  zip: '10115',
  place: 'Köln',
  country_code: 'de',
  latitude: 50.94,
  longitude: 6.96,
  keywords: ['Brötchen'],
  description: null,
  emails: [],
  phones: [{ id: '7', type: 'landline', number: '+4922112345' }],
  url: 'https://listings.example.com/de/1042',
  hours: {
    monday: [{ start: '08:00:00', end: '12:00:00' }],
    tuesday: [],
    wednesday: [],
    thursday: [],
    friday: [{ start: '22:00:00', end: '24:00:00' }],
    saturday: [{ start: '00:00:00', end: '02:00:00' }],
    sunday: [],
  },
  special_hours: [
    { date: '2026-12-24', closed: false, intervals: [{ start: '08:00:00', end: '12:00:00' }] },
    { date: '2026-12-25', closed: true, intervals: [] },
  ],
  temporarily_closed: null,
  time_zone: 'Europe/Berlin',
  images: [],
  links: [],
  categories: [{ id: 'shop/bakery', name: 'Bäckerei' }],
  active: true,
  contact: { name: 'Anna', surname: 'Müller', title: '', gender: 'F' },
  claimed: true,
  suppressed: false,
  version: 3,
};

/** What the analyst fields need, for a listing nobody claims. */
const unclaimed = { createdAt: new Date(0), claimantName: null, hasOffer: false };

t.test('the whole index document matches its fixture', async (t) => {
  const doc = buildListingDocument({
    listing,
    partnerName: 'Acme Data',
    suppressed: false,
    boost: 1.5,
    version: 3,
    updatedAt: new Date('2026-11-22T08:00:00Z'),
    rating: { mean: 4.26, count: 3 },
    createdAt: new Date('2026-11-20T09:30:00Z'),
    claimantName: 'Beta Listings',
    hasOffer: true,
  });
  const fixture = JSON.parse(readFileSync(new URL('../fixtures/listing-document.json', import.meta.url), 'utf8'));
  t.same(doc, fixture);
});

t.test('a listing without coordinates or reviews has no loc and no rating', async (t) => {
  const doc = buildListingDocument({ listing: { ...listing, latitude: null, longitude: null }, partnerName: 'p', suppressed: true, boost: 1, version: 1, updatedAt: new Date(0), ...unclaimed });
  t.equal(doc.loc, null);
  t.equal(doc.rating, null);
  t.equal(doc.review_count, 0);
  t.equal(doc.suppressed, true);
  t.notOk('contact' in doc.listing, 'filtered search never shows contact');
});

t.test('opening hours become ranges of local seconds: of the week, and of the epoch for special days', async (t) => {
  const doc = buildListingDocument({ listing, partnerName: 'p', suppressed: false, boost: 1, version: 1, updatedAt: new Date(0), ...unclaimed });
  // Friday 22:00-24:00 ends where Saturday 00:00-02:00 starts: the night is one stretch.
  t.same(doc.internal.open_weekly, [
    { gte: 8 * 3600, lt: 12 * 3600 },
    { gte: 4 * 86400 + 22 * 3600, lt: 5 * 86400 },
    { gte: 5 * 86400, lt: 5 * 86400 + 2 * 3600 },
  ]);
  const christmasEve = Date.UTC(2026, 11, 24) / 1000;
  t.same(doc.internal.open_special, [{ gte: christmasEve + 8 * 3600, lt: christmasEve + 12 * 3600 }]);
  t.same(doc.internal.open_special_dates, ['2026-12-24', '2026-12-25'], 'a closed special day still replaces its weekly hours');
  t.equal(doc.internal.closed_days, null);
  t.equal(doc.internal.open_tz, 'Europe/Berlin');
});

t.test('a temporary closure covers every day up to until, or every day when until is null', async (t) => {
  const closedUntil = buildListingDocument({
    listing: { ...listing, temporarily_closed: { until: '2026-12-31' } },
    partnerName: 'p',
    suppressed: false,
    boost: 1,
    version: 1,
    updatedAt: new Date(0),
    ...unclaimed,
  });
  t.same(closedUntil.internal.closed_days, { gte: -2_147_483_648, lte: Date.UTC(2026, 11, 31) / 86_400_000 });
  const closedOpenEnded = buildListingDocument({
    listing: { ...listing, temporarily_closed: { until: null } },
    partnerName: 'p',
    suppressed: false,
    boost: 1,
    version: 1,
    updatedAt: new Date(0),
    ...unclaimed,
  });
  t.same(closedOpenEnded.internal.closed_days, { gte: -2_147_483_648, lte: 2_147_483_647 });
  // Dates before 1970, and years below 100 (which Date.UTC would move to the 1900s), still make a valid range.
  const before1970 = buildListingDocument({
    listing: { ...listing, temporarily_closed: { until: '1969-12-31' } },
    partnerName: 'p',
    suppressed: false,
    boost: 1,
    version: 1,
    updatedAt: new Date(0),
    ...unclaimed,
  });
  t.same(before1970.internal.closed_days, { gte: -2_147_483_648, lte: -1 });
  const year50 = buildListingDocument({
    listing: { ...listing, temporarily_closed: { until: '0050-01-01' } },
    partnerName: 'p',
    suppressed: false,
    boost: 1,
    version: 1,
    updatedAt: new Date(0),
    ...unclaimed,
  });
  t.equal((year50.internal.closed_days as { lte: number }).lte, -701_265, 'the year 50, not 1950');
});

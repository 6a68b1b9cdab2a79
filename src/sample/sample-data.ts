// A handful of listings so that a fresh `npm start` has something to search. Created through the
// listings service, i.e. the same write path and outbox as the API.
import type { ListingInput } from '../schemas/listing.js';

export const SAMPLE_LISTINGS: ListingInput[] = [
  {
    name: 'Bäckerei Müller', address: 'Hauptstraße 12a', zip: '10115', place: 'Berlin', latitude: 52.532, longitude: 13.384,
    keywords: ['Brot', 'Brötchen'], description: 'Familienbäckerei seit 1921',
    phones: [{ type: 'landline', number: '+493012345678' }], emails: [{ address: 'info@baeckerei-mueller.example' }],
    links: [{ type: 'website', url: 'https://baeckerei-mueller.example' }],
    hours: { monday: [{ start: '06:00', end: '18:00' }], saturday: [{ start: '07:00', end: '12:00' }] },
    categories: [{ id: 'shop/bakery' }], contact: { name: 'Anna', surname: 'Müller', title: '', gender: 'F' },
  },
  {
    name: 'Café Kranzler', address: 'Kurfürstendamm 18', zip: '10719', place: 'Berlin', latitude: 52.5037, longitude: 13.3316,
    phones: [{ type: 'landline', number: '+493088718390' }], categories: [{ id: 'amenity/cafe' }],
    hours: { sunday: [{ start: '10:00', end: '19:00' }] },
  },
  {
    name: 'Apotheke am Marienplatz', address: 'Marienplatz 8', zip: '80331', place: 'München', latitude: 48.1372, longitude: 11.5755,
    phones: [{ type: 'landline', number: '+49892424240' }], categories: [{ id: 'amenity/pharmacy' }],
  },
  {
    name: 'Zahnarztpraxis Dr. Schäfer', address: 'Königsallee 30', zip: '40212', place: 'Düsseldorf', latitude: 51.2241, longitude: 6.7788,
    categories: [{ id: 'amenity/dentist' }],
  },
  {
    name: 'Hotel Elbblick', address: 'Elbchaussee 401', zip: '22609', place: 'Hamburg', latitude: 53.5541, longitude: 9.8653,
    categories: [{ id: 'tourism/hotel' }, { id: 'amenity/restaurant' }],
  },
];

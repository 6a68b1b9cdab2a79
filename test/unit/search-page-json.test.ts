// The search response's JSON with the listings passed through as text (src/search/json-text.ts,
// src/search/search-page.ts): byte for byte what JSON.stringify writes for the parsed listings.
import t from 'tap';
import { jsonText, withMembers, type JsonText } from '../../src/search/json-text.js';
import { searchPageJson } from '../../src/search/search-page.js';
import type { SolrResultView } from '../../src/schemas/search.js';

// What indexer/listing-document.ts stores: escapes, non-ASCII, a line separator, a lone surrogate,
// numbers JSON.stringify writes in exponent form; with and without the optional members.
const views: SolrResultView[] = [
  {
    id: 'de:1',
    lid: 1,
    cc: 'de',
    name: 'Café "Zum Ü" \\ \u2028 \ud800 Straße',
    street: 'Prüfweg 7',
    zip: '10115',
    place: 'Berlin',
    partner: 'Partner',
    loc: '52.52,13.405',
    rating: 4.333333333333333,
    categories: ['Bäckerei', 'Café'],
    boost: 1.1,
    _version_: 3,
  },
  { id: 'de:2', lid: 2, cc: 'de', name: 'x', street: '', zip: '', place: '', partner: '', categories: [], boost: 0.1 + 0.2, _version_: 1e21 },
];
const added = [
  { score: 0 },
  { score: 12.5 },
  { _dist_: 1.2345, _distboost_: 1 + 0.5 * 0.5 ** (1.2345 / 3), score: 1e-7 },
  { _dist_: Number.NaN, _distboost_: Number.POSITIVE_INFINITY, score: 2 }, // JSON.stringify writes null
];

t.test('a result with members added reads as the parsed result spread with them, byte for byte', async (t) => {
  for (const view of views) {
    for (const members of added) {
      const text = JSON.stringify(view) as JsonText<SolrResultView>;
      t.equal(withMembers(text, members), JSON.stringify({ ...JSON.parse(text), ...members }), `${view.id} with ${Object.keys(members).join(', ')}`);
    }
  }
  t.equal(withMembers(jsonText({ a: 1 }), {}), '{"a":1}', 'nothing added');
  t.equal(withMembers(jsonText({}), { b: 2 }), '{"b":2}', 'added to an empty object');
});

t.test('a page with its listings as text reads as JSON.stringify of the page, members in their order', async (t) => {
  const results = views.map((view) => ({ ...view, score: 1.5 }));
  const pages = [
    { numFound: 9, next: 'c"ursor', numReturned: 2, listings: results }, // a sorted page: next before listings
    { numFound: 9, numReturned: 2, listings: results, next: 'cursor' }, // an ids page: next after listings
    { numFound: 2, numReturned: 2, listings: results },
    { numFound: 0, numReturned: 0, listings: [] as typeof results },
  ];
  for (const page of pages) {
    t.equal(searchPageJson({ ...page, listings: page.listings.map(jsonText) }), JSON.stringify(page), Object.keys(page).join(', '));
  }
});

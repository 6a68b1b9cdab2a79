// The query shapes of the second search round (docs/partners/search.md) against golden fixtures:
// one search box, category names, compound words, the area and the order, and type-ahead.
// Regenerate a fixture only after reading its diff.
import t from 'tap';
import { readFileSync } from 'node:fs';
import { SEARCH_DEFAULTS } from '../../src/search/query/defaults.js';
import { buildSolrQuery, distanceSortIndex } from '../../src/search/query/solr-query.js';
import { buildCategorySuggestQuery, buildListingSuggestQuery } from '../../src/search/query/suggest-query.js';
import { parseListingSearch, type ListingSearch } from '../../src/search/search-params.js';
import { parseSuggest } from '../../src/search/suggest-params.js';

const fixture = (name: string) => JSON.parse(readFileSync(new URL(`../fixtures/queries/${name}.json`, import.meta.url), 'utf8'));
const solr = (q: Parameters<typeof parseListingSearch>[0]) => parseListingSearch({ solr: true, ...q }) as Extract<ListingSearch, { kind: 'solr' }>;
const centre = { lat: 52.52, lon: 13.405 };

const SOLR_CASES: [string, Parameters<typeof parseListingSearch>[0]][] = [
  ['solr-one-box', { what: 'Bäckerei Krümelbach Berlin' }],
  ['solr-one-box-post-code', { what: 'Bäckerei Krümelbach 10115' }],
  ['solr-category-surname', { what: 'Friseur Krümelbach' }],
  ['solr-compound-split', { what: 'Auto Werkstatt Huber' }],
  ['solr-long-query', { what: 'Hotel Garni Alpenblick Sonnhof' }],
  ['solr-radius-distance', { what: 'Pizza', ...centre, radius: 3, sort: 'distance' }],
  ['solr-bbox', { category: 'Café', bbox: '13.3,52.4,13.5,52.6' }],
];
const SUGGEST_CASES: [string, Parameters<typeof parseSuggest>[0]][] = [
  ['suggest-typo-before-prefix', { q: 'Bäckerie Krüm', ...centre }],
  ['suggest-first-letters', { q: 'Bäck', limit: 3 }],
];

t.test('Solr queries of the second round against their fixtures', async (t) => {
  for (const [name, query] of SOLR_CASES) t.same(buildSolrQuery(solr(query)), fixture(name), name);
});

t.test('suggest queries (listings and categories) against their fixtures', async (t) => {
  for (const [name, query] of SUGGEST_CASES) {
    const request = parseSuggest(query);
    t.same({ listings: buildListingSuggestQuery(request), categories: buildCategorySuggestQuery('de', request) }, fixture(name), name);
  }
});

t.test('a whole word outranks a compound match, which outranks a category; a typo stays below a word', async (t) => {
  const { name, compound, category, tags } = SEARCH_DEFAULTS.weights;
  t.ok(name.exact > compound.split && name.exact > compound.joined && compound.split > compound.suffix);
  t.ok(compound.suffix >= category.exact && category.exact === tags.exact);
});

t.test('up to three words every one must match; from four, one may be missing', async (t) => {
  const must = (what: string) => (buildSolrQuery(solr({ what })).query as { function_score: { query: { bool: { must: Record<string, unknown>[] } } } }).function_score.query.bool.must;
  t.equal(must('Bäckerei Krümelbach Berlin').length, 3);
  const long = must('Hotel Garni Alpenblick Sonnhof') as { bool: { must: { bool: { should: unknown[]; minimum_should_match: number } }[]; should: { constant_score: { boost: number } }[] } }[];
  t.equal(long.length, 1);
  t.equal(long[0]!.bool.must[0]!.bool.should.length, 4);
  t.equal(long[0]!.bool.must[0]!.bool.minimum_should_match, 3);
  t.equal(long[0]!.bool.should[0]!.constant_score.boost, 4 * SEARCH_DEFAULTS.weights.everyWord, 'every word matched earns more');
});

t.test('the area: radius around the centre, 20 km by default, or a box; sort=distance puts the distance first', async (t) => {
  const filters = (q: Parameters<typeof parseListingSearch>[0]) => JSON.stringify(buildSolrQuery(solr(q)).query);
  t.match(filters({ what: 'x', ...centre }), /"distance":"20km"/);
  t.match(filters({ what: 'x', ...centre, radius: 0.1 }), /"distance":"0.1km"/);
  t.match(filters({ bbox: '13.3,52.4,13.5,52.6' }), /"geo_bounding_box":\{"loc":\{"top_left":\{"lat":52.6,"lon":13.3\},"bottom_right":\{"lat":52.4,"lon":13.5\}\}\}/);
  const byDistance = buildSolrQuery(solr({ what: 'x', ...centre, sort: 'distance' }));
  t.same(byDistance.sort.length, 2);
  t.equal(byDistance.track_scores, true, 'scores still reported');
  t.equal(distanceSortIndex(solr({ what: 'x', ...centre, sort: 'distance' })), 0);
  t.equal(distanceSortIndex(solr({ ...centre, sort: 'relevance' })), 1);
  t.equal(buildSolrQuery(solr({ ...centre, sort: 'relevance' })).sort[0], '_score');
});

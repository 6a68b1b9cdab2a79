// Whole query bodies against golden fixtures (pelias/api's approach): any change to a query shows
// up as a fixture diff. Regenerate a fixture only after reading that diff.
import t from 'tap';
import { readFileSync } from 'node:fs';
import { buildFilteredQuery } from '../../src/search/query/filtered-query.js';
import { buildSolrQuery, distanceBoost, distanceSortIndex } from '../../src/search/query/solr-query.js';
import { parseListingSearch, type ListingSearch } from '../../src/search/search-params.js';

const fixture = (name: string) => JSON.parse(readFileSync(new URL(`../fixtures/queries/${name}.json`, import.meta.url), 'utf8'));
const solr = (q: Parameters<typeof parseListingSearch>[0]) => parseListingSearch({ solr: true, ...q }) as Extract<ListingSearch, { kind: 'solr' }>;
const filtered = (q: Parameters<typeof parseListingSearch>[0]) => parseListingSearch(q) as Exclude<ListingSearch, { kind: 'solr' }>;

t.test('filtered queries', async (t) => {
  t.same(buildFilteredQuery(filtered({ ids: '3,1,3' })), fixture('filtered-ids'));
  t.same(buildFilteredQuery(filtered({ phone: ' 4930123456', limit: 10, offset: 20 })), fixture('filtered-phone'));
  t.same(buildFilteredQuery(filtered({ street: 'Hauptstr*', place: 'KÖLN', postCode: '50667', number: '1?2' })), fixture('filtered-address'));
});

t.test('Solr queries', async (t) => {
  t.same(buildSolrQuery(solr({ what: 'Bäckerei "Am Markt"', where: 'Köln' })), fixture('solr-what-where'));
  t.same(buildSolrQuery(solr({ what: 'pizza', lat: 48.137, lon: 11.575, limit: 10 })), fixture('solr-what-centre'));
  t.same(buildSolrQuery(solr({ category: 'Café', lat: 48.137, lon: 11.575 })), fixture('solr-centre-only'));
});

t.test('no user text reaches query_string or scripts', async (t) => {
  const body = JSON.stringify(buildSolrQuery(solr({ what: 'a:b OR (c) AND d~2 *', where: '"x" y', category: 'z', lat: 1, lon: 2 })));
  t.notMatch(body, /query_string|simple_query_string|script/);
});

t.test('_dist_ sits where the sort puts the distance; _distboost_ is 1 + 0.5^(d/5)', async (t) => {
  t.equal(distanceSortIndex(solr({ what: 'x', lat: 1, lon: 2 })), 1);
  t.equal(distanceSortIndex(solr({ lat: 1, lon: 2 })), 0);
  t.equal(distanceSortIndex(solr({ what: 'x' })), -1);
  t.equal(distanceBoost(0), 2);
  t.equal(distanceBoost(5), 1.5);
  t.ok(Math.abs(distanceBoost(20) - 1.0625) < 1e-12);
});

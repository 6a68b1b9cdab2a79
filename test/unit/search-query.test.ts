// Whole query bodies against golden fixtures (pelias/api's approach): any change to a query shows
// up as a fixture diff. Regenerate a fixture only after reading that diff.
import t from 'tap';
import { readFileSync } from 'node:fs';
import { buildFilteredQuery } from '../../src/search/query/filtered-query.js';
import { buildSolrQuery, distanceBoost, distanceSortIndex } from '../../src/search/query/solr-query.js';
import { parseListingSearch, type ListingSearch } from '../../src/search/search-params.js';
import { buildMatchQuery } from '../../src/match/match-query.js';
import { countTerms, MAX_SOLR_BODY_BYTES, MAX_SOLR_TERMS, MAX_TEXT, ORDINARY, WORST_TEXTS } from '../../bench/worst-queries.js';

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

t.test('Solr queries of every relevance class (bench/relevance-queries.ts) against their fixtures', async (t) => {
  const classes: [string, Parameters<typeof parseListingSearch>[0]][] = [
    ['solr-exact-legal-form', { what: 'Steuerberatung Hirzzöttl & Partner GmbH & Co. KG' }],
    ['solr-typo-first-letter', { what: 'Physiotherapie Qurnholzer' }],
    ['solr-two-edits', { what: 'Gschinnwalnre' }],
    ['solr-surname-alone', { what: 'Wurnholzer' }],
    ['solr-what-where-typos', { what: 'Fahradladen Gschinnwallner', where: 'Müncen' }],
    ['solr-name-centre', { what: 'Bäckerei Zwilling', lat: 48.137, lon: 11.575 }],
  ];
  for (const [name, query] of classes) t.same(buildSolrQuery(solr(query)), fixture(name), name);
});

t.test('capitals, transliteration and punctuation give the same query as the name', async (t) => {
  const name = buildSolrQuery(solr({ what: 'Steuerberatung Hirzzöttl & Partner' }));
  t.same(buildSolrQuery(solr({ what: 'STEUERBERATUNG HIRZZÖTTL & PARTNER' })), name, 'all capitals');
  t.same(buildSolrQuery(solr({ what: 'Steuerberatung Hirzzoettl + Partner' })), name, 'oe for ö, + for &');
  t.same(buildSolrQuery(solr({ what: 'Steuerberatung Hirzzöttl Partner' })), name, '& is no word');
});

t.test('every word is required but legal forms and connectors, which only add to the score', async (t) => {
  const body = JSON.stringify(buildSolrQuery(solr({ what: 'Müller und Söhne GmbH & Co. KG' })));
  const must = (JSON.parse(body).query.function_score.query.bool.must as unknown[]).map((c) => JSON.stringify(c));
  t.equal(must.length, 2, 'müller and söhne');
  t.ok(must[0]!.includes('"muller"') && must[1]!.includes('"sohne"'));
  t.match(body, /"internal.name_words":"gmbh"/, 'a matching legal form scores');
});

t.test('a query without what or where scores nothing and sorts by distance, then id', async (t) => {
  const body = buildSolrQuery(solr({ category: 'Café', lat: 48.137, lon: 11.575 }));
  t.same(Object.keys(body.query), ['bool']);
  t.notOk('track_scores' in body);
  t.same(body.sort[1], { lid: 'asc' });
});

t.test('hits are read from doc values, never from _source', async (t) => {
  const body = buildSolrQuery(solr({ what: 'x' }));
  t.same([body._source, body.stored_fields, body.docvalue_fields], [false, ['_none_'], ['internal.result_view']]);
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

t.test('the worst what and where allowed build a bounded body: typo forms within their budget, a few KB per word at most', async (t) => {
  const ordinary = JSON.stringify(buildSolrQuery(solr(ORDINARY)));
  for (const [name, text] of Object.entries(WORST_TEXTS)) {
    t.ok(text.length <= MAX_TEXT, `${name}: ${text.length} characters`);
    const body = buildSolrQuery(solr({ what: text, where: text }));
    const bytes = JSON.stringify(body).length;
    t.ok(countTerms(body) <= MAX_SOLR_TERMS, `${name}: ${countTerms(body)} terms, at most ${MAX_SOLR_TERMS}`);
    // One 200-letter word made 20 000 terms and 4 MB before the bounds; now the whole body stays
    // within what the typo budget's longest words take.
    t.ok(bytes <= MAX_SOLR_BODY_BYTES, `${name}: ${bytes} bytes (an ordinary search: ${ordinary.length})`);
    const match = buildMatchQuery({ name: text, streets: [], place: text.slice(0, 100) });
    t.ok(countTerms(match) <= MAX_SOLR_TERMS && JSON.stringify(match).length <= MAX_SOLR_BODY_BYTES, `${name}: the match candidate search too (${countTerms(match)} terms)`);
  }
  t.ok(countTerms(buildSolrQuery(solr({ what: WORST_TEXTS['one 200-letter word']! }))) < 20, 'a word too long for typo forms is one exact look-up per field');
});

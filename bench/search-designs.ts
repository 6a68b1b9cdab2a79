// The query designs the relevance benchmark compares (npm run bench:relevance -- --designs). Each
// takes the production body and changes one thing, so that the figures isolate that thing:
// how `what` and `where` tolerate typos, and whether the total is counted exactly.
import { fold } from '../src/search/fold.js';
import { buildSolrQuery } from '../src/search/query/solr-query.js';
import { parseSolrText } from '../src/search/query/solr-text.js';
import type { ListingSearch } from '../src/search/search-params.js';

type Solr = Extract<ListingSearch, { kind: 'solr' }>;
type Clause = Record<string, unknown>;
type Body = ReturnType<typeof buildSolrQuery>;

/** The bool query under the function_score wrappers: where the text clauses live. */
function textBool(body: Body): { must?: Clause[]; should?: Clause[]; filter: Clause[] } {
  let query = body.query as Clause;
  while ('function_score' in query) query = (query.function_score as { query: Clause }).query;
  return (query as { bool: { must?: Clause[]; should?: Clause[]; filter: Clause[] } }).bool;
}

/**
 * The design before the typo forms: Lucene fuzzy queries (fuzziness AUTO: 1 edit from 3 letters,
 * 2 from 6) over the folded name, categories and keywords, `where` a fuzzy filter on the place.
 * `prefixLength` 1 is what ran before (the first letter must be right); 0 allows a typo anywhere.
 */
function fuzzyText(search: Solr, prefixLength: number): Body {
  const body = buildSolrQuery(search);
  const bool = textBool(body);
  const fields = ['internal.name_fold^3', 'internal.categories_fold^2', 'internal.keywords_fold'];
  const fuzzy = { fuzziness: 'AUTO', prefix_length: prefixLength, max_expansions: 50 };
  delete bool.must;
  delete bool.should;
  if (search.what) {
    const { phrases, terms } = parseSolrText(search.what);
    const plain = search.what.replace(/"/g, ' ').replace(/\s+/g, ' ').trim();
    bool.must = [
      ...terms.map((term) => ({ multi_match: { query: fold(term), fields, operator: 'and', ...fuzzy } })),
      ...phrases.map((phrase) => ({ multi_match: { query: fold(phrase), fields, type: 'phrase' } })),
    ];
    bool.should = [
      { term: { 'name.kw': { value: plain.toLowerCase(), boost: 4 } } },
      { match_phrase: { 'internal.name_fold': { query: fold(plain), boost: 2 } } },
      { multi_match: { query: fold(plain), fields, operator: 'and', boost: 2 } },
    ];
  }
  if (search.where) {
    const { phrases, terms } = parseSolrText(search.where);
    const place: Clause[] = [
      ...(terms.length ? [{ match: { 'internal.place_fold.text': { query: fold(terms.join(' ')), operator: 'and', fuzziness: 'AUTO', prefix_length: prefixLength } } }] : []),
      ...phrases.map((phrase) => ({ match_phrase: { 'internal.place_fold.text': fold(phrase) } })),
    ];
    bool.filter.push({ bool: { should: [{ bool: { filter: place } }, { term: { 'internal.zip_fold': fold(search.where.replace(/"/g, '')) } }], minimum_should_match: 1 } });
  }
  return body;
}

export const SEARCH_DESIGNS: { name: string; build: (search: Solr) => Body }[] = [
  { name: 'typo forms (deletion neighbourhood), exact total: **chosen**', build: buildSolrQuery },
  { name: 'typo forms, total counted up to 10 000', build: (s) => ({ ...buildSolrQuery(s), track_total_hits: 10_000 as unknown as true }) },
  { name: 'fuzzy queries, first letter must be right (before)', build: (s) => fuzzyText(s, 1) },
  { name: 'fuzzy queries, typo at any letter (prefix_length 0)', build: (s) => fuzzyText(s, 0) },
];

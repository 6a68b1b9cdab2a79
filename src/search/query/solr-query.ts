// The OpenSearch body of the Solr-mode search, assembled from small clause functions.
// score = text relevance × listing boost × _distboost_ (README "Ranking").
import { fold } from '../fold.js';
import type { ListingSearch } from '../search-params.js';
import { SEARCH_DEFAULTS } from './defaults.js';
import { parseSolrText } from './solr-text.js';

type Solr = Extract<ListingSearch, { kind: 'solr' }>;
type Clause = Record<string, unknown>;

const { fuzzy, whatFields, boosts, distance, radiusKm } = SEARCH_DEFAULTS;

export const SOLR_SOURCE_FIELDS = ['id', 'lid', 'cc', 'name', 'listing.address', 'listing.zip', 'place', 'partner', 'loc', 'rating', 'categories', 'boost', 'version'];

/** Every term must match (a misspelt word is matched fuzzily, never skipped); phrases exactly. */
function whatMust(what: string): Clause[] {
  const { phrases, terms } = parseSolrText(what);
  return [
    ...terms.map((term) => ({
      multi_match: {
        query: fold(term), fields: whatFields, operator: 'and',
        fuzziness: fuzzy.fuzziness, prefix_length: fuzzy.prefixLength, max_expansions: fuzzy.maxExpansions,
      },
    })),
    ...phrases.map((phrase) => ({ multi_match: { query: fold(phrase), fields: whatFields, type: 'phrase' } })),
  ];
}

/** Exact matches lift a listing above fuzzy ones. */
function whatShould(what: string): Clause[] {
  const plain = what.replace(/"/g, ' ').replace(/\s+/g, ' ').trim();
  return [
    { term: { 'name.kw': { value: plain.toLowerCase(), boost: boosts.exactName } } },
    { match_phrase: { name_fold: { query: fold(plain), boost: boosts.namePhrase } } },
    { multi_match: { query: fold(plain), fields: whatFields, operator: 'and', boost: boosts.allTermsExact } },
  ];
}

/** `where` filters by place (typo-tolerant) or post code; it does not change the score. */
function whereFilter(where: string): Clause {
  const { phrases, terms } = parseSolrText(where);
  const place: Clause[] = [
    ...(terms.length ? [{ match: { 'place_fold.text': { query: fold(terms.join(' ')), operator: 'and', fuzziness: fuzzy.fuzziness, prefix_length: fuzzy.prefixLength } } }] : []),
    ...phrases.map((phrase) => ({ match_phrase: { 'place_fold.text': fold(phrase) } })),
  ];
  return { bool: { should: [{ bool: { filter: place } }, { term: { zip_fold: fold(where.replace(/"/g, '')) } }], minimum_should_match: 1 } };
}

function filters(search: Solr): Clause[] {
  return [
    { term: { active: true } },
    { term: { suppressed: false } },
    ...(search.where ? [whereFilter(search.where)] : []),
    ...(search.category ? [{ term: { 'categories_fold.kw': fold(search.category) } }] : []),
    ...(search.centre ? [{ geo_distance: { distance: `${radiusKm}km`, loc: search.centre } }] : []),
  ];
}

const geoSort = (centre: { lat: number; lon: number }) =>
  ({ _geo_distance: { loc: centre, order: 'asc', unit: 'km', distance_type: 'arc' } });

export function buildSolrQuery(search: Solr) {
  const text = search.what
    ? { bool: { must: whatMust(search.what), should: whatShould(search.what), filter: filters(search) } }
    : { bool: { filter: filters(search) } };
  const boosted = { function_score: { query: text, functions: [{ field_value_factor: { field: 'boost', missing: 1 } }], boost_mode: 'multiply' } };
  const query = search.centre
    ? {
      function_score: {
        query: boosted,
        functions: [
          { weight: 1 },
          { exp: { loc: { origin: search.centre, offset: '0km', scale: `${distance.scaleKm}km`, decay: distance.decay } }, weight: distance.weight },
        ],
        score_mode: 'sum',
        boost_mode: 'multiply',
      },
    }
    : boosted;
  // Without `what`, a centre orders by distance (CONTRACT section 5); ties always break by id.
  const sort = search.centre
    ? (search.what ? ['_score', geoSort(search.centre), { lid: 'asc' }] : [geoSort(search.centre), { lid: 'asc' }])
    : ['_score', { lid: 'asc' }];
  return {
    query, sort, from: search.offset, size: search.limit,
    track_scores: true, track_total_hits: true, _source: SOLR_SOURCE_FIELDS,
  };
}

/** Index in `hit.sort` of the distance in km, when the query has a centre. */
export const distanceSortIndex = (search: Solr) => (search.centre ? (search.what ? 1 : 0) : -1);

/** The distance factor the query applied: 1 + weight × decay^(d / scale). */
export const distanceBoost = (km: number) => 1 + distance.weight * distance.decay ** (km / distance.scaleKm);

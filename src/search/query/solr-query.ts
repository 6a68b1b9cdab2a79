// The OpenSearch body of the Solr-mode search, assembled from small clause functions.
// score = text relevance × listing boost × _distboost_ (docs/search.md, "Scoring").
import { fold } from '../fold.js';
import { internalField } from '../internal-fields.js';
import type { ListingSearch } from '../search-params.js';
import { affordableForms, queryForms, queryTypoBudget, type QueryForms, type TypoBudget } from '../typo-variants.js';
import { isOptionalWord, keyOfWords, searchWords, wordSpellings, writtenWords } from '../words.js';
import { SEARCH_DEFAULTS } from './defaults.js';
import { parseSolrText } from './solr-text.js';
import { categoryMatches, compoundMatches, everyWordMatches } from './what-alternatives.js';

type Solr = Extract<ListingSearch, { kind: 'solr' }>;
type Clause = Record<string, unknown>;

const { weights, phraseFields, distance, radiusKm, maxStrictWords } = SEARCH_DEFAULTS;

/** The doc-values field that holds each listing's Solr-mode result (mappings/listings.json). */
export const SOLR_RESULT_FIELD = internalField('result_view');

/** The indexed word fields of one text (mappings/listings.json): `internal.<field>_words`, `_del1`, `_del2`. */
export type WordField = 'name' | 'tags' | 'place';
export type WordWeights = { exact: number; oneEdit: number; twoEdits?: number };

/** Matches with a fixed score: every listing that matches costs the same to score. */
export const scored = (filter: Clause, boost: number): Clause => ({ constant_score: { filter, boost } });

/** One query word against one text field: exactly, one edit away, two edits away. */
function wordMatches(field: WordField, forms: QueryForms, w: WordWeights): Clause[] {
  return [
    scored({ term: { [internalField(`${field}_words`)]: forms.exact } }, w.exact),
    ...(forms.del1 ? [scored({ terms: { [internalField(`${field}_del1`)]: forms.del1 } }, w.oneEdit)] : []),
    ...(forms.del2 && w.twoEdits !== undefined ? [scored({ terms: { [internalField(`${field}_del2`)]: forms.del2 } }, w.twoEdits)] : []),
  ];
}

/**
 * Required word `i` of `words` (each given by its spellings) scores its best match under any
 * spelling: in the name or the tags; in the place or post code (one search box); a category
 * name in any language, or a compound (what-alternatives.ts). Its typo forms come out of the
 * query's budget: looked up in the name, the tags and the place (del1), and the name (del2).
 */
function whatWord(words: string[][], i: number, budget: TypoBudget): Clause {
  const spellings = words[i]!;
  // A long query states each word's clause twice (everyWordMatches): its forms cost twice.
  const times = words.length > maxStrictWords ? 2 : 1;
  const forms = affordableForms(spellings, budget, { del1: 3 * times, del2: times });
  const codes = spellings.filter((spelling) => /\d/.test(spelling));
  return {
    dis_max: {
      queries: [
        ...forms.flatMap((f) => [...wordMatches('name', f, weights.name), ...wordMatches('tags', f, weights.tags)]),
        ...forms.flatMap((f) => wordMatches('place', f, weights.placeInWhat)),
        ...(codes.length ? [scored({ terms: { [internalField('zip_fold')]: codes } }, weights.placeInWhat.exact)] : []),
        ...[...categoryMatches(spellings, forms), ...compoundMatches(words, i)].map(({ filter, weight }) => scored(filter, weight)),
      ],
    },
  };
}

/**
 * A written word's best match, under any of its spellings, in one word field: exact, one or two
 * edits away, as far as the query's typo budget allows (the match endpoint's candidate search
 * uses it too, src/match/match-query.ts).
 */
export const fieldWord = (field: WordField, spellings: string[], w: WordWeights, budget: TypoBudget): Clause => ({
  dis_max: {
    queries: affordableForms(spellings, budget, { del1: 1, del2: w.twoEdits === undefined ? 0 : 1 }).flatMap((forms) => wordMatches(field, forms, w)),
  },
});

/**
 * The spellings (words.ts) of each written word a query requires: connectors and legal forms only
 * when there is nothing else. Each word is spelled once here: folding it is a third of what
 * building a Solr query costs.
 */
export function requiredSpellings(text: string): string[][] {
  const words = writtenWords(text)
    .map(wordSpellings)
    .filter((spellings) => spellings.length);
  const required = words.filter((spellings) => !spellings.some(isOptionalWord));
  return required.length ? required : words;
}

/** The clause of each required word (requiredSpellings), as `what` matches it; the suggest endpoint's too. */
export const whatWordClauses = (words: string[][], budget: TypoBudget = queryTypoBudget()): Clause[] => words.map((_, i) => whatWord(words, i, budget));

/**
 * Every required word must match, a misspelt one by its typo forms (never skipped; in a long query
 * one may be missing, what-alternatives.ts); quoted phrases exactly.
 */
function whatMust(what: string, budget: TypoBudget): Clause[] {
  const { phrases, terms } = parseSolrText(what);
  return [
    ...everyWordMatches(whatWordClauses(requiredSpellings(terms.join(' ')), budget)),
    ...phrases.map((phrase) => ({ multi_match: { query: fold(phrase), fields: phraseFields, type: 'phrase' } })),
  ];
}

/** The name typed whole, or its words in order, lift a listing above partial matches; so do legal forms that match. */
function whatShould(what: string): Clause[] {
  const words = searchWords(what.replace(/"/g, ' '));
  const key = keyOfWords(words);
  return [
    ...[...new Set(words.filter(isOptionalWord))].map((word) => scored({ term: { [internalField('name_words')]: word } }, weights.optionalWord)),
    { term: { [internalField('name_key')]: { value: key, boost: weights.wholeName } } },
    { match_phrase: { [internalField('name_fold')]: { query: key, boost: weights.namePhrase } } },
    { term: { [internalField('name_word_count')]: { value: String(words.length), boost: weights.sameWordCount } } },
    ...nameAndPlace(words),
  ];
}

/**
 * One search box: the name typed whole but for a word at either end, that word being the
 * listing's place (exact or one edit away) or post code ("Bäckerei Krümelbach Berlin"), ranks
 * that listing above names that only share the words.
 */
function nameAndPlace(words: string[]): Clause[] {
  if (words.length < 2) return [];
  const splits: [string[], string][] = [
    [words.slice(0, -1), words.at(-1)!],
    [words.slice(1), words[0]!],
  ];
  return splits.map(([name, place]) => {
    // One edit at most, outside the query's typo budget: two words, each bounded by maxOneEdit.
    const forms = queryForms(place, { twoEdits: false });
    const isPlace = { bool: { should: [{ terms: { [internalField('place_del1')]: forms.del1 ?? [forms.exact] } }, { term: { [internalField('zip_fold')]: place } }], minimum_should_match: 1 } };
    return scored({ bool: { filter: [{ term: { [internalField('name_key')]: keyOfWords(name) } }, isPlace] } }, weights.nameAndPlace);
  });
}

/**
 * `where` matches the place, every word of it and typo-tolerant, or the post code. An exact
 * place scores a little more than a misspelt one; otherwise it leaves the ranking to `what`.
 */
function whereMust(where: string, budget: TypoBudget): Clause {
  const { phrases, terms } = parseSolrText(where);
  const place: Clause[] = [
    ...requiredSpellings(terms.join(' ')).map((spellings) => fieldWord('place', spellings, weights.place, budget)),
    ...phrases.map((phrase) => ({ match_phrase: { [internalField('place_fold.text')]: fold(phrase) } })),
  ];
  return {
    bool: {
      should: [{ bool: { must: place } }, scored({ term: { [internalField('zip_fold')]: fold(where.replace(/"/g, '')) } }, weights.place.exact)],
      minimum_should_match: 1,
    },
  };
}

function filters(search: Solr, extra: Clause[]): Clause[] {
  return [
    { term: { active: true } },
    { term: { suppressed: false } },
    ...(search.category ? [{ term: { [internalField('categories_fold.kw')]: fold(search.category) } }] : []),
    ...(search.centre ? [{ geo_distance: { distance: `${search.radiusKm ?? radiusKm}km`, loc: search.centre } }] : []),
    ...(search.bbox ? [{ geo_bounding_box: { loc: { top_left: { lat: search.bbox.maxLat, lon: search.bbox.minLon }, bottom_right: { lat: search.bbox.minLat, lon: search.bbox.maxLon } } } }] : []),
    ...extra,
  ];
}

export const geoSort = (centre: { lat: number; lon: number }) => ({ _geo_distance: { loc: centre, order: 'asc', unit: 'km', distance_type: 'arc' } });

/** score = text × the listing's boost × (with a centre) _distboost_ (docs/search.md); the suggest endpoint's too. */
export function ranked(search: Pick<Solr, 'centre'>, text: Clause): Clause {
  const boosted = { function_score: { query: text, functions: [{ field_value_factor: { field: 'boost', missing: 1 } }], boost_mode: 'multiply' } };
  if (!search.centre) return boosted;
  return {
    function_score: {
      query: boosted,
      functions: [{ weight: 1 }, { exp: { loc: { origin: search.centre, offset: '0km', scale: `${distance.scaleKm}km`, decay: distance.decay } }, weight: distance.weight }],
      score_mode: 'sum',
      boost_mode: 'multiply',
    },
  };
}

/** `extra`: filters the caller adds, such as open_at's (open-at-query.ts), which needs the zones in use. */
export function buildSolrQuery(search: Solr, extra: Clause[] = []) {
  // One typo budget for the whole query: `what` takes from it first, then `where`.
  const budget = queryTypoBudget();
  const must = [...(search.what ? whatMust(search.what, budget) : []), ...(search.where ? [whereMust(search.where, budget)] : [])];
  const filter = filters(search, extra);
  // Without `what` or `where` every listing would score the same: filters only, nothing scored.
  const query = must.length ? ranked(search, { bool: { must, ...(search.what ? { should: whatShould(search.what) } : {}), filter } }) : { bool: { filter } };
  // Without `what`, a centre orders by distance unless `sort` says otherwise (docs/contract.md §5,
  // docs/partners/search.md); ties always break by id.
  const sort = search.centre ? (sortsByDistance(search) ? [geoSort(search.centre), { lid: 'asc' }] : ['_score', geoSort(search.centre), { lid: 'asc' }]) : ['_score', { lid: 'asc' }];
  return {
    query,
    sort,
    from: search.offset,
    size: search.limit,
    // A sort that starts with _score brings the scores; asking for them beside another sort costs
    // OpenSearch a second pass of the query, so only a scored query sorted by distance asks.
    ...(sort[0] !== '_score' && must.length ? { track_scores: true } : {}),
    track_total_hits: true,
    // Hits are read from doc values alone: no _source, not even the stored _id.
    _source: false,
    stored_fields: ['_none_'],
    docvalue_fields: [SOLR_RESULT_FIELD],
  };
}

/** Whether the results are ordered by distance first: `sort=distance`, or by default a centre without `what`. */
const sortsByDistance = (search: Solr) => search.centre !== undefined && (search.sort ?? (search.what ? 'relevance' : 'distance')) === 'distance';

/** Index in `hit.sort` of the distance in km, when the query has a centre. */
export const distanceSortIndex = (search: Solr) => (search.centre ? (sortsByDistance(search) ? 0 : 1) : -1);

/** The distance factor the query applied: 1 + weight × decay^(d / scale). */
export const distanceBoost = (km: number) => 1 + distance.weight * distance.decay ** (km / distance.scaleKm);

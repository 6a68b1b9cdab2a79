// The one OpenSearch request that finds a match request's candidates: listings sharing a name word
// (typo-tolerant, the Solr mode's own look-ups), the phone, the street, the post code, a place word
// or the neighbourhood. Clauses only pick and pre-rank candidates; match-score.ts scores them.
import { fieldWord, requiredSpellings, scored } from '../search/query/solr-query.js';
import { fold } from '../search/fold.js';
import { internalField } from '../search/internal-fields.js';
import { queryTypoBudget, type TypoBudget } from '../search/typo-variants.js';
import { MATCH_DEFAULTS } from './match-defaults.js';

type Clause = Record<string, unknown>;

/** What the candidate search looks for (match-params.ts builds it from the request). */
export interface MatchSearch {
  name: string;
  /** Spellings of the street as `internal.street_fold` may hold it (match-normalise.ts streetSpellings). */
  streets: string[];
  /** Folded post code. */
  zip?: string;
  place?: string;
  /** E.164. */
  phone?: string;
  centre?: { lat: number; lon: number };
}

const { recall, candidatePool, nearbyKm } = MATCH_DEFAULTS;

/** Fields of `_source` the model reads: the stored Listing's name, address, coordinates, phones and links. */
export const MATCH_SOURCE_FIELDS = [
  'lid',
  'listing.name',
  'listing.address',
  'listing.zip',
  'listing.place',
  'listing.latitude',
  'listing.longitude',
  'listing.phones.number',
  'listing.links.type',
  'listing.links.url',
];

const nameWords = (name: string, budget: TypoBudget) => requiredSpellings(name).map((spellings) => fieldWord('name', spellings, recall.name, budget));
const placeWords = (place: string, budget: TypoBudget) => requiredSpellings(place).map((spellings) => fieldWord('place', spellings, recall.place, budget));

const optional = <T>(value: T | undefined, clause: (value: T) => Clause | Clause[]): Clause[] => (value === undefined ? [] : [clause(value)].flat());

export function buildMatchQuery(search: MatchSearch) {
  // The Solr mode's typo bounds (src/search/query/defaults.ts): the name takes from them first, then the place.
  const budget = queryTypoBudget();
  const should: Clause[] = [
    ...nameWords(search.name, budget),
    ...optional(search.phone, (phone) => scored({ term: { phones: phone } }, recall.phone)),
    ...(search.streets.length ? [scored({ terms: { [internalField('street_fold')]: search.streets } }, recall.street)] : []),
    ...optional(search.zip, (zip) => scored({ term: { [internalField('zip_fold')]: fold(zip) } }, recall.zip)),
    ...optional(search.place, (place) => placeWords(place, budget)),
    // A filter used as a should: listings nearby earn points, farther ones are still candidates
    // (a same-named branch must be scored to be told apart).
    ...optional(search.centre, (centre) => scored({ geo_distance: { distance: `${nearbyKm}km`, loc: centre } }, recall.nearby)),
  ];
  return {
    query: { bool: { should, minimum_should_match: 1, filter: [{ term: { suppressed: false } }] } },
    sort: ['_score', { lid: 'asc' }],
    size: candidatePool,
    track_total_hits: false,
    _source: MATCH_SOURCE_FIELDS,
  };
}

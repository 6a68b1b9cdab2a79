// OpenSearch bodies of the filtered search (ids | phone | address). No scoring: every clause is a
// filter; order is by id (ids: by the order given, applied by the caller).
import type { ListingSearch } from '../search-params.js';
import { internalField } from '../internal-fields.js';
import { matchClause } from './wildcard.js';

type Filtered = Exclude<ListingSearch, { kind: 'solr' }>;

const NOT_SUPPRESSED = { term: { suppressed: false } };

function filters(search: Filtered): Record<string, unknown>[] {
  switch (search.kind) {
    case 'ids':
      return [{ terms: { lid: search.ids } }];
    case 'phone':
      return [{ term: { phones: search.phone } }];
    case 'address':
      return [
        matchClause(internalField('street_fold'), search.street),
        matchClause(internalField('place_fold'), search.place),
        matchClause(internalField('zip_fold'), search.postCode),
        ...(search.number ? [matchClause(internalField('house_number_fold'), search.number)] : []),
      ];
  }
}

type Ids = Extract<Filtered, { kind: 'ids' }>;
type Query = { bool: { filter: Record<string, unknown>[] } };
/** The ids search: every given id at once, ordered and paged by the caller. */
type IdsBody = { query: Query; size: number; track_total_hits: true } & typeof READ_IDS_HITS;
/** The phone and address searches: sorted by id, paged by OpenSearch (from, or search_after). */
type SortedBody = { query: Query; from: number; size: number; sort: [{ lid: 'asc' }]; track_total_hits: true } & typeof READ_HITS;

/** The stored field that holds a hit's listing as JSON text (indexer/listing-document.ts). */
export const LISTING_TEXT_FIELD = internalField('listing_text');
/**
 * Hits are read from that stored field alone: no _source to load and filter, no _id; the API
 * splices the text into its answer unparsed (docs/search.md "Reading the hits").
 */
const READ_HITS = { _source: false, stored_fields: [LISTING_TEXT_FIELD] } as const;
/** The ids search also reads each hit's id, from doc values, to put the hits in the order given. */
const READ_IDS_HITS = { ...READ_HITS, docvalue_fields: ['lid'] } as const;

/** `extra`: filters the caller adds, such as open_at's (open-at-query.ts), which needs the zones in use. */
export function buildFilteredQuery(search: Ids, extra?: Record<string, unknown>[]): IdsBody;
export function buildFilteredQuery(search: Exclude<Filtered, Ids>, extra?: Record<string, unknown>[]): SortedBody;
export function buildFilteredQuery(search: Filtered, extra?: Record<string, unknown>[]): IdsBody | SortedBody;
export function buildFilteredQuery(search: Filtered, extra: Record<string, unknown>[] = []): IdsBody | SortedBody {
  const query = { bool: { filter: [...filters(search), NOT_SUPPRESSED, ...extra] } };
  if (search.kind === 'ids') {
    // At most 50 ids: fetch all of them, then order and page them as given.
    return { query, size: search.ids.length, track_total_hits: true, ...READ_IDS_HITS };
  }
  return { query, from: search.offset, size: search.limit, sort: [{ lid: 'asc' }], track_total_hits: true, ...READ_HITS };
}

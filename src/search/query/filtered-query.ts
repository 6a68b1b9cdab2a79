// OpenSearch bodies of the filtered search (ids | phone | address). No scoring: every clause is a
// filter; order is by id (ids: by the order given, applied by the caller).
import type { ListingSearch } from '../search-params.js';
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
        matchClause('street_fold', search.street),
        matchClause('place_fold', search.place),
        matchClause('zip_fold', search.postCode),
        ...(search.number ? [matchClause('house_number_fold', search.number)] : []),
      ];
  }
}

type Ids = Extract<Filtered, { kind: 'ids' }>;
type Query = { bool: { filter: Record<string, unknown>[] } };
/** The ids search: every given id at once, ordered and paged by the caller. */
type IdsBody = { query: Query; size: number; _source: string[]; track_total_hits: true };
/** The phone and address searches: sorted by id, paged by OpenSearch (from, or search_after). */
type SortedBody = { query: Query; from: number; size: number; sort: [{ lid: 'asc' }]; _source: string[]; track_total_hits: true };

/** `extra`: filters the caller adds, such as open_at's (open-at-query.ts), which needs the zones in use. */
export function buildFilteredQuery(search: Ids, extra?: Record<string, unknown>[]): IdsBody;
export function buildFilteredQuery(search: Exclude<Filtered, Ids>, extra?: Record<string, unknown>[]): SortedBody;
export function buildFilteredQuery(search: Filtered, extra?: Record<string, unknown>[]): IdsBody | SortedBody;
export function buildFilteredQuery(search: Filtered, extra: Record<string, unknown>[] = []): IdsBody | SortedBody {
  const query = { bool: { filter: [...filters(search), NOT_SUPPRESSED, ...extra] } };
  if (search.kind === 'ids') {
    // At most 50 ids: fetch all of them, then order and page them as given.
    return { query, size: search.ids.length, _source: ['listing', 'lid'], track_total_hits: true };
  }
  return { query, from: search.offset, size: search.limit, sort: [{ lid: 'asc' }], _source: ['listing'], track_total_hits: true };
}

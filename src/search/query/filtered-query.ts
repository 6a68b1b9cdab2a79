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

/** `extra`: filters the caller adds, such as open_at's (open-at-query.ts), which needs the zones in use. */
export function buildFilteredQuery(search: Filtered, extra: Record<string, unknown>[] = []) {
  const query = { bool: { filter: [...filters(search), NOT_SUPPRESSED, ...extra] } };
  if (search.kind === 'ids') {
    // At most 50 ids: fetch all of them, then order and page them as given.
    return { query, size: search.ids.length, _source: ['listing', 'lid'], track_total_hits: true };
  }
  return { query, from: search.offset, size: search.limit, sort: [{ lid: 'asc' }], _source: ['listing'], track_total_hits: true };
}

// The body the API sends OpenSearch for a search request (src/search/search-service.ts): the
// builder of its kind, with the open_now/open_at filter over the zones the country's listings use.
// The raw side of bench/run.ts and bench/request-path.ts sends it, so raw and API do the same work.
import type { Client } from '@opensearch-project/opensearch';
import { indexNames } from '../src/opensearch/index-definitions.js';
import type { ListingSearchQuery } from '../src/schemas/search.js';
import { openFilter } from '../src/search/open-filter.js';
import { createOpenZones } from '../src/search/open-zones.js';
import { buildFilteredQuery } from '../src/search/query/filtered-query.js';
import { buildSolrQuery } from '../src/search/query/solr-query.js';
import { parseListingSearch } from '../src/search/search-params.js';

export function createSearchBody({ opensearch, prefix, country }: { opensearch: Client; prefix: string; country: string }) {
  // Asked once: the benchmarks add no listing in a zone new to the country while they search.
  const openZones = createOpenZones({ opensearch, names: indexNames(prefix), ttlMs: Infinity });
  /** The JSON body for `query` as the API would build it now (open_now means this instant). */
  return async function searchBody(query: ListingSearchQuery): Promise<string> {
    const params = parseListingSearch(query);
    const extra = await openFilter(openZones, country, params.openAt);
    return JSON.stringify(params.kind === 'solr' ? buildSolrQuery(params, extra) : buildFilteredQuery(params, extra));
  };
}

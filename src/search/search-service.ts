// Runs the searches against OpenSearch and shapes the results. Query bodies come from the pure
// builders in query/; this module only does I/O, logging and mapping.
import type { Logger } from 'pino';
import { AppError } from '../errors.js';
import type { OpenSearchClient } from '../opensearch/client.js';
import type { IndexNames } from '../opensearch/index-definitions.js';
import type { ListingSummary } from '../schemas/listing.js';
import type { ListingSearchResponse, SolrResult, SolrResultView } from '../schemas/search.js';
import type { OpenZones } from './open-zones.js';
import { buildFilteredQuery } from './query/filtered-query.js';
import { openAtClause } from './query/open-at-query.js';
import { buildSolrQuery, distanceBoost, distanceSortIndex, SOLR_RESULT_FIELD } from './query/solr-query.js';
import type { ListingSearch } from './search-params.js';

interface Hit<T> {
  _id: string;
  _score: number | null;
  _source: T;
  fields?: Record<string, string[]>;
  sort?: unknown[];
}

/** A page of the search response with its one kind of listing. */
export type SearchPage<T extends ListingSearchResponse['listings'][number]> = Omit<ListingSearchResponse, 'listings'> & { listings: T[] };

export function createSearchService({ opensearch, names, logger, openZones }: {
  opensearch: OpenSearchClient;
  names: IndexNames;
  logger: Logger;
  openZones: Pick<OpenZones, 'zonesOf'>;
}) {
  /** The open_now/open_at filter, evaluated by OpenSearch so that numFound and paging count only open listings. */
  async function openFilter(country: string, params: ListingSearch): Promise<Record<string, unknown>[]> {
    return params.openAt ? [openAtClause(params.openAt, await openZones.zonesOf(country))] : [];
  }


  async function search<T>(country: string, kind: string, body: Record<string, unknown>) {
    const res = await opensearch.search({ index: names.listingsAlias(country), body });
    const result = res.body as unknown as { took: number; timed_out: boolean; hits: { total: { value: number }; hits: Hit<T>[] } };
    logger.info({ search: kind, country, took: result.took, hits: result.hits.total.value }, 'opensearch search');
    // A partial answer is no answer (pelias: timed_out is an error).
    if (result.timed_out) throw new AppError('unavailable', 'the search timed out; retry');
    return result.hits;
  }

  return {
    async filtered(country: string, params: Exclude<ListingSearch, { kind: 'solr' }>): Promise<SearchPage<ListingSummary>> {
      const hits = await search<{ listing: ListingSummary; lid?: number }>(country, params.kind, buildFilteredQuery(params, await openFilter(country, params)));
      if (params.kind === 'ids') {
        const byId = new Map(hits.hits.map((h) => [h._source.lid!, h._source.listing]));
        const found = params.ids.flatMap((id) => byId.get(id) ?? []);
        const listings = found.slice(params.offset, params.offset + params.limit);
        return { numFound: found.length, numReturned: listings.length, listings };
      }
      const listings = hits.hits.map((h) => h._source.listing);
      return { numFound: hits.total.value, numReturned: listings.length, listings };
    },

    async solr(country: string, params: Extract<ListingSearch, { kind: 'solr' }>): Promise<SearchPage<SolrResult>> {
      const hits = await search<never>(country, 'solr', buildSolrQuery(params, await openFilter(country, params)));
      const distanceAt = distanceSortIndex(params);
      const listings = hits.hits.map((hit): SolrResult => {
        // The document's ready-made result (listing-document.ts), plus what this query adds.
        const view = JSON.parse(hit.fields![SOLR_RESULT_FIELD]![0]!) as SolrResultView;
        const km = distanceAt >= 0 ? Number(hit.sort?.[distanceAt]) : undefined;
        return { ...view, ...(km !== undefined ? { _dist_: km, _distboost_: distanceBoost(km) } : {}), score: hit._score ?? 0 };
      });
      return { numFound: hits.total.value, numReturned: listings.length, listings };
    },
  };
}

export type SearchService = ReturnType<typeof createSearchService>;

// Type-ahead (GET /:country/suggest): the categories and the listings that match what has been
// typed so far, asked of OpenSearch at once; categories first, then listings, `limit` in all.
import type { Logger } from 'pino';
import { AppError } from '../platform/errors.js';
import type { OpenSearchClient } from '../opensearch/client.js';
import type { IndexNames } from '../opensearch/index-definitions.js';
import { searchThroughPool } from '../opensearch/pool-request.js';
import type { SolrResultView } from '../schemas/search.js';
import type { Suggestion, SuggestResponse } from '../schemas/suggest.js';
import { buildCategorySuggestQuery, buildListingSuggestQuery } from './query/suggest-query.js';
import { SOLR_RESULT_FIELD } from './query/solr-query.js';
import type { SuggestRequest } from './suggest-params.js';

interface Answer<H> {
  took: number;
  timed_out: boolean;
  /** Absent when nothing matched: filter_path leaves out what is empty. */
  hits?: { hits?: H[] };
}
type CategoryHit = { _source: { id: string; name: string } };
type ListingHit = { fields: Record<string, string[]>; sort: number[] };

export function createSuggestService({ opensearch, names, logger }: { opensearch: OpenSearchClient; names: IndexNames; logger: Logger }) {
  async function search<H>(kind: string, index: string, body: object, filterPath: string): Promise<H[]> {
    const answer = await searchThroughPool<Answer<H>>(opensearch, { index, body: JSON.stringify(body), params: { filter_path: `took,timed_out,${filterPath}` } });
    const hits = answer.hits?.hits ?? [];
    logger.debug({ search: kind, took: answer.took, hits: hits.length }, 'opensearch search');
    // A partial answer is no answer (as for every search, search-service.ts).
    if (answer.timed_out) throw new AppError('unavailable', 'the search timed out; retry');
    return hits;
  }

  return {
    async suggest(country: string, request: SuggestRequest): Promise<SuggestResponse> {
      const [categories, listings] = await Promise.all([
        search<CategoryHit>('suggest categories', names.categoriesAlias, buildCategorySuggestQuery(country, request), 'hits.hits._source'),
        search<ListingHit>('suggest listings', names.listingsAlias(country), buildListingSuggestQuery(request), 'hits.hits.fields,hits.hits.sort'),
      ]);
      const suggestions: Suggestion[] = categories.map((hit) => ({ type: 'category', id: hit._source.id, name: hit._source.name }));
      for (const hit of listings) {
        if (suggestions.length >= request.limit) break;
        // A handful of hits: their ready-made Solr result (listing-document.ts) is parsed here.
        const view = JSON.parse(hit.fields[SOLR_RESULT_FIELD]![0]!) as SolrResultView;
        suggestions.push({ type: 'listing', id: String(view.lid), name: view.name, place: view.place, ...(request.centre ? { _dist_: Number(hit.sort[1]) } : {}) });
      }
      return { suggestions };
    },
  };
}

export type SuggestService = ReturnType<typeof createSuggestService>;

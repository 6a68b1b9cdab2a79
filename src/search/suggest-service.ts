// Type-ahead (GET /:country/suggest): the categories and the listings that match what has been
// typed so far, asked of OpenSearch in one `_msearch`; categories first, then listings, `limit` in all.
import type { Logger } from 'pino';
import { AppError } from '../platform/errors.js';
import type { OpenSearchClient } from '../opensearch/client.js';
import type { IndexNames } from '../opensearch/index-definitions.js';
import { requestThroughPool } from '../opensearch/pool-request.js';
import type { SolrResultView } from '../schemas/search.js';
import type { Suggestion, SuggestResponse } from '../schemas/suggest.js';
import { SOLR_RESULT_FIELD } from './query/solr-query.js';
import { suggestSearchesBody } from './query/suggest-query.js';
import type { SuggestRequest } from './suggest-params.js';

type CategoryHit = { _source: { id: string; name: string } };
type ListingHit = { fields: Record<string, string[]>; sort: number[] };
interface Answer<H> {
  took: number;
  timed_out: boolean;
  status: number;
  error?: { type: string };
  /** Absent when nothing matched: filter_path leaves out what is empty. */
  hits?: { hits?: H[] };
}

/** What the service reads of the two answers; the rest would be bytes to parse for nothing. */
const FILTER_PATH = ['took', 'timed_out', 'status', 'error.type', 'hits.hits._source', 'hits.hits.fields', 'hits.hits.sort'].map((p) => `responses.${p}`).join(',');

/** An answer's hits; a failed or partial answer is no answer (pelias: timed_out is an error). */
function hitsOf<H>(answer: Answer<H>): H[] {
  if (answer.error) {
    // A busy or missing index may answer later; anything else is this service's fault.
    if (answer.status === 404 || answer.status === 429 || answer.status >= 500) throw new AppError('unavailable', 'the search is unavailable; retry');
    throw new Error(`suggest search failed: ${answer.status} ${answer.error.type}`);
  }
  if (answer.timed_out) throw new AppError('unavailable', 'the search timed out; retry');
  return answer.hits?.hits ?? [];
}

export function createSuggestService({ opensearch, names, logger }: { opensearch: OpenSearchClient; names: IndexNames; logger: Logger }) {
  return {
    async suggest(country: string, request: SuggestRequest): Promise<SuggestResponse> {
      const body = suggestSearchesBody(country, request, { categories: names.categoriesAlias, listings: names.listingsAlias(country) });
      const { responses } = await requestThroughPool<{ responses: [Answer<CategoryHit>, Answer<ListingHit>] }>(opensearch, {
        path: '/_msearch',
        body,
        contentType: 'application/x-ndjson',
        params: { filter_path: FILTER_PATH },
      });
      const [categories, listings] = [hitsOf(responses[0]), hitsOf(responses[1])];
      logger.debug({ search: 'suggest', country, took: [responses[0].took, responses[1].took], hits: [categories.length, listings.length] }, 'opensearch search');
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

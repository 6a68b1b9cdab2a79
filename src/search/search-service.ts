// Runs the searches against OpenSearch and shapes the results. Query bodies come from the pure
// builders in query/; this module only does I/O, logging and mapping.
import type { Logger } from 'pino';
import { categoryLexicon } from '../categories/category-lexicon.js';
import { AppError } from '../platform/errors.js';
import type { OpenSearchClient } from '../opensearch/client.js';
import { searchThroughPool } from '../opensearch/pool-request.js';
import type { IndexNames } from '../opensearch/index-definitions.js';
import type { ListingSummary } from '../schemas/listing.js';
import type { SolrResult, SolrResultView } from '../schemas/search.js';
import { bodyText, type BodyText } from './body-text.js';
import { encodeCursor, queryKey, readCursor } from './cursor.js';
import { withMembers, withoutItem, type JsonText } from './json-text.js';
import { buildFilteredQuery, LISTING_TEXT_FIELD } from './query/filtered-query.js';
import { openFilter } from './open-filter.js';
import type { OpenZones } from './open-zones.js';
import { continuedAfter } from './query/search-after.js';
import { buildSolrQuery, distanceBoost, distanceSortIndex, SOLR_RESULT_FIELD } from './query/solr-query.js';
import type { ListingSearch } from './search-params.js';
import { searchPage, type SearchPage } from './search-page.js';

/** A hit as the searches ask for it: no _source, only stored and doc-values fields. */
interface Hit {
  _score: number | null;
  fields?: Record<string, (string | number)[]>;
  sort?: unknown[];
}

/** A filtered search's listing, as the stored JSON text it is sent on in (filtered-query.ts). */
const listingText = (hit: Hit) => hit.fields![LISTING_TEXT_FIELD]![0] as JsonText<ListingSummary>;

/**
 * The parts of an answer this service reads. The rest (each hit's index name and id, the shards)
 * would be bytes to receive and parse for nothing: a tenth of a 50-hit Solr answer.
 */
const FILTER_PATH = 'took,timed_out,hits.total.value,hits.hits.fields,hits.hits.sort,hits.hits._score';

/** The bodies this service pages with a cursor: sorted, ending with the listing id. */
type SortedBody = { from: number; sort: unknown[] } & Record<string, unknown>;

export function createSearchService({ opensearch, names, logger, openZones }: { opensearch: OpenSearchClient; names: IndexNames; logger: Logger; openZones: Pick<OpenZones, 'zonesOf'> }) {
  // Built now, at start, rather than by the first search that names a word (a fraction of a second).
  categoryLexicon();
  /**
   * `key` names the query (cursor.ts); as `preference` it sends every page of one query to the
   * same shard copies, whose scores agree from page to page (docs/search.md "Paging").
   */
  async function search(country: string, kind: string, body: BodyText, key: string, cursor: boolean) {
    // filter_path leaves out `hits.hits` when nothing matched.
    const result = await searchThroughPool<{ took: number; timed_out: boolean; hits: { total: { value: number }; hits?: Hit[] } }>(opensearch, {
      index: names.listingsAlias(country),
      body: body.text,
      params: { preference: `q${key}`, filter_path: FILTER_PATH },
    });
    // Debug level: a request writes at most one line at info (src/plugins/request-log.ts).
    logger.debug({ search: kind, country, took: result.took, hits: result.hits.total.value, cursor }, 'opensearch search');
    // A partial answer is no answer (pelias: timed_out is an error).
    if (result.timed_out) throw new AppError('unavailable', 'the search timed out; retry');
    return { total: result.hits.total, hits: result.hits.hits ?? [] };
  }

  /**
   * The body `build` makes with the open-hours filter, and the query's cursor key: the body
   * without that filter, whose instant moves with every page of an `open_now` search, and
   * `open_now` or the `open_at` instant beside it. The builders add the filter as the last of
   * their filters, so its clause is cut from the text instead of building the body again: a Solr
   * body with typo forms costs tens of microseconds to build.
   */
  async function bodyAndKey<B extends Record<string, unknown>>(country: string, params: ListingSearch, build: (extra: Record<string, unknown>[]) => B) {
    const extra = await openFilter(openZones, country, params.openAt);
    const body = build(extra);
    const text = bodyText(body);
    const unfiltered = extra.reduceRight((query, clause) => withoutItem(query, clause), text.query);
    return { body, text, key: queryKey(country, unfiltered, params.openKey) };
  }

  /**
   * One page of a sorted search: from `offset`, or after the hit a cursor names; `next` while more
   * remain. `build` makes the body with the filters given.
   */
  async function sortedPage(country: string, kind: string, build: (extra: Record<string, unknown>[]) => SortedBody, params: ListingSearch) {
    const { body: first, text, key } = await bodyAndKey(country, params, build);
    const position = params.cursor === undefined ? undefined : readCursor(params.cursor, key, first.sort.length);
    const hits = await search(country, kind, position ? bodyText(continuedAfter(first, position.after)) : text, key, position !== undefined);
    const seen = (position?.seen ?? first.from) + hits.hits.length;
    const last = hits.hits.at(-1);
    const next = last?.sort && seen < hits.total.value ? encodeCursor(key, { after: last.sort as number[], seen }) : undefined;
    return { hits: hits.hits, numFound: hits.total.value, next };
  }

  return {
    async filtered(country: string, params: Exclude<ListingSearch, { kind: 'solr' }>): Promise<SearchPage<ListingSummary>> {
      if (params.kind === 'ids') {
        // At most 50 ids, ordered and paged here: the cursor carries no sort values, only how
        // many results came before its page.
        const { text, key } = await bodyAndKey(country, params, (extra) => buildFilteredQuery(params, extra));
        const start = params.cursor === undefined ? params.offset : readCursor(params.cursor, key, 0).seen;
        const hits = await search(country, params.kind, text, key, params.cursor !== undefined);
        const byId = new Map(hits.hits.map((h) => [Number(h.fields!.lid![0]), listingText(h)]));
        const found = params.ids.flatMap((id) => byId.get(id) ?? []);
        const listings = found.slice(start, start + params.limit);
        const seen = start + listings.length;
        return searchPage(found.length, listings, seen < found.length ? encodeCursor(key, { after: [], seen }) : undefined);
      }
      const { hits, numFound, next } = await sortedPage(country, params.kind, (extra) => buildFilteredQuery(params, extra), params);
      return searchPage(numFound, hits.map(listingText), next);
    },

    async solr(country: string, params: Extract<ListingSearch, { kind: 'solr' }>): Promise<SearchPage<SolrResult>> {
      const { hits, numFound, next } = await sortedPage(country, 'solr', (extra) => buildSolrQuery(params, extra), params);
      const distanceAt = distanceSortIndex(params);
      const listings = hits.map((hit): JsonText<SolrResult> => {
        // The document's ready-made result (listing-document.ts), plus what this query adds; its
        // text is passed through, never parsed here (json-text.ts). Written out, not spread: a
        // spread per hit cost more than the rest of the hit.
        const view = hit.fields![SOLR_RESULT_FIELD]![0] as JsonText<SolrResultView>;
        const score = hit._score ?? 0;
        if (distanceAt < 0) return withMembers(view, { score });
        const km = Number(hit.sort![distanceAt]);
        return withMembers(view, { _dist_: km, _distboost_: distanceBoost(km), score });
      });
      return searchPage(numFound, listings, next);
    },
  };
}

export type SearchService = ReturnType<typeof createSearchService>;

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ListingSummary } from '../schemas/listing.js';
import { parseListingSearch } from '../search/search-params.js';
import { searchPageJson, type SearchPage } from '../search/search-page.js';
import type { SearchService } from '../search/search-service.js';
import { errorResponses } from '../schemas/common.js';
import { ListingSearchQuerySchema, ListingSearchResponseSchema, type ListingSearchQuery, type SolrResult } from '../schemas/search.js';

export const searchRoutes: FastifyPluginAsyncTypebox<{ search: SearchService }> = async (app, { search }) => {
  // The reply is the page with its listings as JSON text, which the serializer below splices in;
  // typed here, as a type argument turns off the types the schemas would give.
  app.get<{ Querystring: ListingSearchQuery; Reply: SearchPage<ListingSummary> | SearchPage<SolrResult> }>(
    '/listings',
    {
      schema: {
        summary: 'Search listings: filtered (ids | phone | address) or, with solr=true, the experimental Solr-style search',
        description:
          'Filtered search returns Listings without contact. The Solr mode (solr=true) is **experimental**: ' +
          'typo-tolerant `what`/`where` (`what` may also hold place, post-code, category and compound words), `category`, and ' +
          '`radius` (default 20 km) around `lat`/`lon` with `_dist_` in kilometres, or a `bbox`; `sort=relevance|distance`. ' +
          'Both modes page with `limit`/`offset` up to offset 10000, and past it with `cursor`: each answer carries `next` ' +
          'while more results remain; repeat the same query with `cursor=<next>` (only `limit` may change). ' +
          'Both accept `open_now=true` or `open_at` (ISO 8601 with offset, within 366 days): only listings open then, in their own time zone.',
        tags: ['search'],
        querystring: ListingSearchQuerySchema,
        response: { 200: ListingSearchResponseSchema, ...errorResponses() },
      },
      // The documents come from our own index in their final shape; the union schema above documents
      // them, but checking each item against both branches per response would cost more than the search.
      // A page goes out with its listings' JSON text as it is (search-page.ts); errors as JSON.
      serializerCompiler: ({ httpStatus }) => (httpStatus === '200' ? searchPageJson : (data) => JSON.stringify(data)),
    },
    async (request) => {
      const params = parseListingSearch(request.query);
      return params.kind === 'solr' ? search.solr(request.country, params) : search.filtered(request.country, params);
    },
  );
};

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { parseListingSearch } from '../search/search-params.js';
import type { SearchService } from '../search/search-service.js';
import { errorResponses } from '../schemas/common.js';
import { ListingSearchQuerySchema, ListingSearchResponseSchema } from '../schemas/search.js';

export const searchRoutes: FastifyPluginAsyncTypebox<{ search: SearchService }> = async (app, { search }) => {
  app.get('/listings', {
    schema: {
      summary: 'Search listings: filtered (ids | phone | address) or, with solr=true, the experimental Solr-style search',
      description: 'Filtered search returns Listings without contact. The Solr mode (solr=true) is **experimental**: '
        + 'typo-tolerant `what`/`where`, `category`, and a 20 km radius around `lat`/`lon` with `_dist_` in kilometres. '
        + 'Both modes page with `limit`/`offset` up to offset 10000, and past it with `cursor`: each answer carries `next` '
        + 'while more results remain; repeat the same query with `cursor=<next>` (only `limit` may change). '
        + 'Both accept `open_now=true` or `open_at` (ISO 8601 with offset, within 366 days): only listings open then, in their own time zone.',
      tags: ['search'],
      querystring: ListingSearchQuerySchema,
      response: { 200: ListingSearchResponseSchema, ...errorResponses() },
    },
    // The documents come from our own index in their final shape; the union schema above documents
    // them, but checking each item against both branches per response would cost more than the search.
    serializerCompiler: () => (data) => JSON.stringify(data),
  }, async (request) => {
    const params = parseListingSearch(request.query);
    return params.kind === 'solr' ? search.solr(request.country, params) : search.filtered(request.country, params);
  });
};

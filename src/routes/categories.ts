import { createHash } from 'node:crypto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { IndexNames } from '../../mappings/index.js';
import { searchCategories } from '../categories/categories-index.js';
import type { ListingsService } from '../listings/listings-service.js';
import type { OpenSearchClient } from '../search/opensearch-client.js';
import { errorResponses, ListingParamsSchema } from '../schemas/common.js';
import { CategoriesQuerySchema, CategoriesResponseSchema } from '../schemas/search.js';
import { existingId } from '../ids.js';

/** True when the If-None-Match header names `etag` (a list, weak validators and * included). */
function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').map((t) => t.trim().replace(/^W\//, '')).some((t) => t === etag || t === '*');
}

export const categoryRoutes: FastifyPluginAsyncTypebox<{ opensearch: OpenSearchClient; names: IndexNames; listings: ListingsService }> = async (app, deps) => {
  app.get('/categories', {
    schema: {
      summary: 'Categories of the country, optionally filtered by name (* wildcards); cache them (ETag, max-age 3600)',
      tags: ['categories'],
      querystring: CategoriesQuerySchema,
      response: { 200: CategoriesResponseSchema, 304: Type.Null({ description: 'Not modified' }), ...errorResponses() },
    },
  }, async (request, reply) => {
    const page = await searchCategories(deps.opensearch, deps.names, request.country, request.query.name);
    const etag = `"${createHash('sha1').update(JSON.stringify(page)).digest('base64url')}"`;
    reply.header('etag', etag).header('cache-control', 'public, max-age=3600');
    if (matchesEtag(request.headers['if-none-match'], etag)) return reply.status(304).send(null);
    return page;
  });

  app.get('/listings/:id/categories', {
    schema: {
      summary: 'Categories of a listing',
      tags: ['categories'],
      params: ListingParamsSchema,
      response: { 200: CategoriesResponseSchema, ...errorResponses() },
    },
  }, async (request) => {
    const { categories } = await deps.listings.get(request.country, existingId(request.params.id, 'listing'));
    return { numFound: categories.length, categories };
  });
};

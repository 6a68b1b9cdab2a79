import { createHash } from 'node:crypto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { CategoriesService } from '../categories/categories-service.js';
import { matchesEtag } from '../http/entity-tags.js';
import { existingId } from '../http/ids.js';
import { errorResponses, ListingParamsSchema } from '../schemas/common.js';
import { CategoriesQuerySchema, CategoriesResponseSchema } from '../schemas/search.js';

export const categoryRoutes: FastifyPluginAsyncTypebox<{ categories: CategoriesService }> = async (app, deps) => {
  app.get(
    '/categories',
    {
      schema: {
        summary: 'Categories of the country, optionally filtered by name (* wildcards); cache them (ETag, max-age 3600)',
        tags: ['categories'],
        querystring: CategoriesQuerySchema,
        response: { 200: CategoriesResponseSchema, 304: Type.Null({ description: 'Not modified' }), ...errorResponses() },
      },
    },
    async (request, reply) => {
      const page = await deps.categories.search(request.country, request.query.name);
      const etag = `"${createHash('sha1').update(JSON.stringify(page)).digest('base64url')}"`;
      reply.header('etag', etag).header('cache-control', 'public, max-age=3600');
      if (matchesEtag(request.headers['if-none-match'], etag)) return reply.status(304).send(null);
      return page;
    },
  );

  app.get(
    '/listings/:id/categories',
    {
      schema: {
        summary: 'Categories of a listing',
        tags: ['categories'],
        params: ListingParamsSchema,
        response: { 200: CategoriesResponseSchema, ...errorResponses() },
      },
    },
    async (request) => deps.categories.ofListing(request.country, existingId(request.params.id, 'listing')),
  );
};

// Claim, suppress, offers and mappings: the partner workflows around a listing.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { existingId } from '../http/ids.js';
import type { ClaimsService } from '../listings/claims-service.js';
import type { MappingsService } from '../listings/mappings-service.js';
import type { OffersService } from '../listings/offers-service.js';
import { ifMatchOf } from '../http/entity-tags.js';
import { errorResponses, IfMatchHeadersSchema, ListingParamsSchema, NoContent, preconditionResponses } from '../schemas/common.js';
import { ClaimBodySchema, MappingsQuerySchema, MappingsResponseSchema, OfferInputSchema, OfferSchema } from '../schemas/workflows.js';

interface Deps {
  claims: ClaimsService;
  offers: OffersService;
  mappings: MappingsService;
}

/** The answers of a write that honours If-Match and answers 204. */
const noContent = (...statuses: number[]) => ({ 204: NoContent, ...errorResponses(...statuses), ...preconditionResponses });

export const workflowRoutes: FastifyPluginAsyncTypebox<Deps> = async (app, { claims, offers, mappings }) => {
  const id = (params: { id: string }) => existingId(params.id, 'listing');

  app.put(
    '/listings/:id/claim',
    {
      schema: {
        summary: 'Claim a listing (idempotent); optional body {source_id}',
        tags: ['claims'],
        params: ListingParamsSchema,
        headers: IfMatchHeadersSchema,
        body: Type.Optional(ClaimBodySchema),
        response: noContent(409),
      },
    },
    async (request, reply) => {
      await claims.claim(request.caller, request.country, id(request.params), request.body?.source_id, ifMatchOf(request.headers));
      return reply.status(204).send(null);
    },
  );

  app.delete(
    '/listings/:id/claim',
    {
      schema: { summary: 'Unclaim a listing (idempotent)', tags: ['claims'], params: ListingParamsSchema, headers: IfMatchHeadersSchema, response: noContent(403) },
    },
    async (request, reply) => {
      await claims.unclaim(request.caller, request.country, id(request.params), ifMatchOf(request.headers));
      return reply.status(204).send(null);
    },
  );

  for (const [method, suppressed] of [
    ['put', true],
    ['delete', false],
  ] as const) {
    app[method](
      '/listings/:id/suppress',
      {
        schema: {
          summary: suppressed ? 'Suppress a listing: it leaves every search (idempotent)' : 'Remove the suppression flag (idempotent)',
          tags: ['claims'],
          params: ListingParamsSchema,
          headers: IfMatchHeadersSchema,
          response: noContent(409),
        },
      },
      async (request, reply) => {
        await claims.setSuppressed(request.caller, request.country, id(request.params), suppressed, ifMatchOf(request.headers));
        return reply.status(204).send(null);
      },
    );
  }

  app.put(
    '/listings/:id/offer',
    {
      schema: { summary: 'Set the offer of a listing', tags: ['offers'], params: ListingParamsSchema, headers: IfMatchHeadersSchema, body: OfferInputSchema, response: noContent(403) },
    },
    async (request, reply) => {
      await offers.put(request.caller, request.country, id(request.params), request.body, ifMatchOf(request.headers));
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/listings/:id/offer',
    {
      schema: { summary: 'Get the offer of a listing', tags: ['offers'], params: ListingParamsSchema, response: { 200: Type.Ref(OfferSchema), ...errorResponses() } },
    },
    async (request) => offers.get(request.country, id(request.params)),
  );

  app.delete(
    '/listings/:id/offer',
    {
      schema: { summary: 'Remove the offer of a listing (idempotent)', tags: ['offers'], params: ListingParamsSchema, headers: IfMatchHeadersSchema, response: noContent(403) },
    },
    async (request, reply) => {
      await offers.remove(request.caller, request.country, id(request.params), ifMatchOf(request.headers));
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/listings/map',
    {
      schema: {
        summary: 'Your mappings source_id → service_id (at most 1000; * wildcard)',
        tags: ['mappings'],
        querystring: MappingsQuerySchema,
        response: { 200: MappingsResponseSchema, ...errorResponses() },
      },
    },
    async (request) => mappings.find(request.caller, request.country, request.query.source_id),
  );
};

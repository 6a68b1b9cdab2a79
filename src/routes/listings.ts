import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { ListingsService } from '../listings/listings-service.js';
import { errorResponses, ListingParamsSchema, NoContent } from '../schemas/common.js';
import { ListingInputSchema, ListingSchema } from '../schemas/listing.js';
import { existingId } from '../http/ids.js';

export const listingRoutes: FastifyPluginAsyncTypebox<{ listings: ListingsService }> = async (app, { listings }) => {
  app.post('/listings', {
    config: { idempotent: true },
    schema: {
      summary: 'Create a listing (claimed by the caller); honours Idempotency-Key',
      tags: ['listings'],
      body: ListingInputSchema,
      response: { 201: Type.Ref(ListingSchema), ...errorResponses(409, 413, 415) },
    },
  }, async (request, reply) => {
    const listing = await listings.create(request.caller, request.country, request.body);
    return reply.status(201).send(listing);
  });

  app.get('/listings/:id', {
    schema: {
      summary: 'Read a listing',
      tags: ['listings'],
      params: ListingParamsSchema,
      response: { 200: Type.Ref(ListingSchema), ...errorResponses() },
    },
  }, async (request) => listings.get(request.country, existingId(request.params.id, 'listing')));

  app.put('/listings/:id', {
    schema: {
      summary: 'Replace a listing',
      tags: ['listings'],
      params: ListingParamsSchema,
      body: ListingInputSchema,
      response: { 200: Type.Ref(ListingSchema), ...errorResponses(403, 409, 413, 415) },
    },
  }, async (request) => listings.update(request.caller, request.country, existingId(request.params.id, 'listing'), request.body));

  app.delete('/listings/:id', {
    schema: {
      summary: 'Delete a listing',
      tags: ['listings'],
      params: ListingParamsSchema,
      response: { 204: NoContent, ...errorResponses(403) },
    },
  }, async (request, reply) => {
    await listings.remove(request.caller, request.country, existingId(request.params.id, 'listing'));
    return reply.status(204).send(null);
  });
};

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { ReviewsService } from '../reviews/reviews-service.js';
import { errorResponses, ListingParamsSchema, NoContent } from '../schemas/common.js';
import { ReviewInputSchema, ReviewParamsSchema, ReviewSchema } from '../schemas/review.js';
import { existingId } from '../http/ids.js';

export const reviewRoutes: FastifyPluginAsyncTypebox<{ reviews: ReviewsService }> = async (app, { reviews }) => {
  app.get(
    '/listings/:id/reviews',
    {
      schema: {
        summary: 'Reviews of a listing: website reviews and your own, newest first',
        tags: ['reviews'],
        params: ListingParamsSchema,
        response: { 200: Type.Object({ numFound: Type.Integer(), reviews: Type.Array(Type.Ref(ReviewSchema)) }), ...errorResponses() },
      },
    },
    async (request) => reviews.list(request.caller, request.country, existingId(request.params.id, 'listing')),
  );

  app.post(
    '/listings/:id/reviews',
    {
      config: { idempotent: true },
      schema: {
        summary: 'Post a review (an admin key posts website reviews); honours Idempotency-Key',
        tags: ['reviews'],
        params: ListingParamsSchema,
        body: ReviewInputSchema,
        response: { 201: Type.Ref(ReviewSchema), ...errorResponses(409, 413, 415) },
      },
    },
    async (request, reply) => {
      const review = await reviews.create(request.caller, request.country, existingId(request.params.id, 'listing'), request.body);
      return reply.status(201).send(review);
    },
  );

  app.get(
    '/listings/:id/reviews/:reviewId',
    {
      schema: { summary: 'A review you may see', tags: ['reviews'], params: ReviewParamsSchema, response: { 200: Type.Ref(ReviewSchema), ...errorResponses() } },
    },
    async (request) => reviews.get(request.caller, request.country, existingId(request.params.id, 'listing'), existingId(request.params.reviewId, 'review')),
  );

  app.delete(
    '/listings/:id/reviews/:reviewId',
    {
      schema: { summary: 'Delete your review', tags: ['reviews'], params: ReviewParamsSchema, response: { 204: NoContent, ...errorResponses(403) } },
    },
    async (request, reply) => {
      await reviews.remove(request.caller, request.country, existingId(request.params.id, 'listing'), existingId(request.params.reviewId, 'review'));
      return reply.status(204).send(null);
    },
  );
};

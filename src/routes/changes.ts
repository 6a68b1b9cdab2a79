// The change feed (docs/contract.md §14).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ChangesService } from '../changes/changes-service.js';
import { ChangesPageSchema, ChangesQuerySchema } from '../schemas/changes.js';
import { CountryParamsSchema, errorResponses } from '../schemas/common.js';

export const changeRoutes: FastifyPluginAsyncTypebox<{ changes: ChangesService }> = async (app, { changes }) => {
  app.get(
    '/changes',
    {
      schema: {
        summary: 'Changes of listings in commit order, after a cursor; follow `next` to receive each once',
        tags: ['changes'],
        params: CountryParamsSchema,
        querystring: ChangesQuerySchema,
        response: { 200: ChangesPageSchema, ...errorResponses(410) },
      },
    },
    async (request) => changes.page(request.caller, request.country, request.query.after, request.query.limit ?? 100),
  );
};

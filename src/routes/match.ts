import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { MatchService } from '../match/match-service.js';
import { errorResponses } from '../schemas/common.js';
import { MatchRequestSchema, MatchResponseSchema } from '../schemas/match.js';

export const matchRoutes: FastifyPluginAsyncTypebox<{ match: MatchService }> = async (app, { match }) => {
  app.post(
    '/listings/match',
    {
      schema: {
        summary: 'Find listings that may be the business described, before creating it (extension)',
        description:
          'At most 5 candidates, best first, scored 0–1 (two decimals, none below 0.3); suppressed and deleted ' +
          'listings never appear. Of candidates scored ≥ 0.8, at least 98 % are the listing meant; an unchanged copy of a ' +
          "listing's name and address scores ≥ 0.8. A signal the request cannot judge is null. See docs/partners/match.md.",
        tags: ['listings'],
        body: MatchRequestSchema,
        response: { 200: MatchResponseSchema, ...errorResponses(413, 415) },
      },
    },
    async (request) => match.match(request.country, request.body),
  );
};

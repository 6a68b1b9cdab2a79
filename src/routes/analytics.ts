// The analysts' door to the index (docs/contract.md §22, docs/analytics.md). Authentication (analyst
// and admin keys only) and the per-key rate limit are installed on the scope by src/http/app.ts.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AnalyticsService } from '../analytics/analytics-service.js';
import {
  AnalyticsCountAnswerSchema,
  AnalyticsCountBodySchema,
  AnalyticsFieldCapsBodySchema,
  AnalyticsFieldCapsQuerySchema,
  AnalyticsParamsSchema,
  AnalyticsSearchBodySchema,
  OpenSearchAnswerSchema,
} from '../schemas/analytics.js';
import { errorResponses } from '../schemas/common.js';

const tags = ['analytics'];
const responses = (answer: typeof OpenSearchAnswerSchema | typeof AnalyticsCountAnswerSchema) => ({ 200: answer, ...errorResponses(403, 413, 415) });

export const analyticsRoutes: FastifyPluginAsyncTypebox<{ analytics: AnalyticsService }> = async (app, { analytics }) => {
  app.post(
    '/analytics/:target/_search',
    {
      schema: {
        summary: 'Search the index as OpenSearch does, through the guards (analysts, admins)',
        description:
          'The body goes to OpenSearch\'s _search after the checks of docs/analytics.md ("What the door refuses"); ' +
          "the answer is OpenSearch's, without the internal fields. Page long reads with `sort` and `search_after`.",
        tags,
        params: AnalyticsParamsSchema,
        body: AnalyticsSearchBodySchema,
        response: responses(OpenSearchAnswerSchema),
      },
    },
    // The answer is JSON text already (analytics-service.ts): sent as it is, the schema documents it.
    async (request, reply) => reply.type('application/json; charset=utf-8').send(await analytics.search(request.params.target, request.body ?? {}, request.log)),
  );

  app.post(
    '/analytics/:target/_count',
    {
      schema: {
        summary: 'Count the documents a query matches (analysts, admins)',
        tags,
        params: AnalyticsParamsSchema,
        body: AnalyticsCountBodySchema,
        response: responses(AnalyticsCountAnswerSchema),
      },
    },
    async (request) => analytics.count(request.params.target, request.body ?? {}, request.log),
  );

  app.get(
    '/analytics/:target/_mapping',
    {
      schema: {
        summary: "The mapping of the target's indices (analysts, admins); the fields are explained in docs/analytics.md",
        tags,
        params: AnalyticsParamsSchema,
        response: responses(OpenSearchAnswerSchema),
      },
    },
    async (request) => analytics.mapping(request.params.target, request.log),
  );

  app.post(
    '/analytics/:target/_field_caps',
    {
      schema: {
        summary: 'Which fields can be searched and aggregated, and as what type (analysts, admins)',
        tags,
        params: AnalyticsParamsSchema,
        querystring: AnalyticsFieldCapsQuerySchema,
        body: AnalyticsFieldCapsBodySchema,
        response: responses(OpenSearchAnswerSchema),
      },
    },
    async (request) => analytics.fieldCaps(request.params.target, request.query.fields, request.body ?? {}, request.log),
  );
};

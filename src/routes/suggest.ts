import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '../schemas/common.js';
import { SuggestQuerySchema, SuggestResponseSchema } from '../schemas/suggest.js';
import { parseSuggest } from '../search/suggest-params.js';
import type { SuggestService } from '../search/suggest-service.js';

export const suggestRoutes: FastifyPluginAsyncTypebox<{ suggest: SuggestService }> = async (app, { suggest }) => {
  app.get(
    '/suggest',
    {
      schema: {
        summary: 'Type-ahead: categories and listings whose name matches what has been typed so far',
        description:
          'The last word of `q` is a prefix; the words before it match as the words of `what` do in the Solr mode ' +
          '(typos, transliteration). Categories whose name matches come first, then listings, nearer first with `lat`/`lon`; ' +
          'never inactive or suppressed listings. At most `limit` suggestions (1–10, default 5).',
        tags: ['search'],
        querystring: SuggestQuerySchema,
        response: { 200: SuggestResponseSchema, ...errorResponses() },
      },
    },
    async (request) => suggest.suggest(request.country, parseSuggest(request.query)),
  );
};

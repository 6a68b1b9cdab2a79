// buildApp: plugins first, then routes, registered explicitly in order. No I/O happens here;
// the caller passes the connected dependencies.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { Config } from './config.js';
import type { ApiDeps } from './deps.js';
import { installCountryAuth } from './plugins/auth.js';
import { installErrorHandler } from './plugins/error-handler.js';
import { installValidators } from './plugins/validation.js';
import { healthRoutes } from './routes/health.js';
import { categoryRoutes } from './routes/categories.js';
import { listingRoutes } from './routes/listings.js';
import { searchRoutes } from './routes/search.js';
import { ErrorSchema } from './schemas/common.js';
import { ImageSchema, ListingSchema, ListingSummarySchema } from './schemas/listing.js';
import { SolrResultSchema } from './schemas/search.js';

export async function buildApp({ config, logger, deps }: { config: Config; logger: Logger; deps: ApiDeps }): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: logger as FastifyBaseLogger,
    bodyLimit: config.BODY_LIMIT_BYTES,
    requestIdHeader: 'x-request-id',
    genReqId: () => crypto.randomUUID(),
    // Slow clients must not hold sockets forever (issue 8).
    connectionTimeout: 30_000,
    requestTimeout: 30_000,
    routerOptions: { ignoreTrailingSlash: true },
  }).withTypeProvider<TypeBoxTypeProvider>();

  // JSON only: a text/plain body answers 415 instead of reaching the validator as a string.
  app.removeContentTypeParser('text/plain');
  installValidators(app);
  installErrorHandler(app);
  for (const schema of [ErrorSchema, ImageSchema, ListingSchema, ListingSummarySchema, SolrResultSchema]) app.addSchema(schema);
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });

  await app.register(healthRoutes, { health: { pool: deps.database.pool, redis: deps.redis, opensearch: deps.opensearch } });
  await app.register(async (countryScope) => {
    installCountryAuth(countryScope, { partners: deps.partners, countries: config.countries });
    await countryScope.register(listingRoutes, { listings: deps.listings });
    await countryScope.register(searchRoutes, { search: deps.search });
    await countryScope.register(categoryRoutes, { opensearch: deps.opensearch, names: deps.names, listings: deps.listings });
  }, { prefix: '/:country' });

  return app;
}

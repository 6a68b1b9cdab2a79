// buildApp: plugins first, then routes, registered explicitly in order. No I/O happens here;
// the caller passes the connected dependencies.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { Config } from '../platform/config.js';
import type { ApiDeps } from './deps.js';
import { lazyChildLoggerFactory } from './lazy-child-logger.js';
import { installAnalyticsAuth, installCountryAuth, installPartnerAuth } from '../plugins/auth.js';
import { installEarlyAnswers } from '../plugins/early-answers.js';
import { installErrorHandler } from '../plugins/error-handler.js';
import { answerClientError, answerFrameworkError } from '../plugins/http-errors.js';
import { installIdempotency } from '../plugins/idempotency.js';
import { createLargeBodyGate } from '../plugins/large-body-gate.js';
import { installMetrics } from '../plugins/metrics.js';
import { installOpenApi } from '../plugins/openapi.js';
import { authFailureNamespace, createAuthFailureLimit, createKeyRateLimit, installAddressRateLimit, keyRateLimitNamespace } from '../plugins/rate-limit.js';
import { installReadTimeout } from '../plugins/read-timeout.js';
import { requestId } from '../plugins/request-id.js';
import { installRequestLog } from '../plugins/request-log.js';
import { installSecurityHeaders } from '../plugins/security-headers.js';
import { installValidators } from '../plugins/validation.js';
import { analyticsRoutes } from '../routes/analytics.js';
import { categoryRoutes } from '../routes/categories.js';
import { changeRoutes } from '../routes/changes.js';
import { exportRoutes } from '../routes/export.js';
import { healthRoutes } from '../routes/health.js';
import { importRoutes } from '../routes/imports.js';
import { imageRoutes, mediaRoutes } from '../routes/images.js';
import { listingRoutes } from '../routes/listings.js';
import { matchRoutes } from '../routes/match.js';
import { reviewRoutes } from '../routes/reviews.js';
import { searchRoutes } from '../routes/search.js';
import { suggestRoutes } from '../routes/suggest.js';
import { webhookRoutes } from '../routes/webhooks.js';
import { workflowRoutes } from '../routes/workflows.js';
import { ErrorSchema } from '../schemas/common.js';
import { ImageSchema, ListingSchema, ListingSummarySchema } from '../schemas/listing.js';
import { ReviewSchema } from '../schemas/review.js';
import { SolrResultSchema } from '../schemas/search.js';
import { WebhookSchema } from '../schemas/webhooks.js';
import { OfferSchema } from '../schemas/workflows.js';

export async function buildApp({ config, logger, deps }: { config: Config; logger: Logger; deps: ApiDeps }): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: logger as FastifyBaseLogger,
    bodyLimit: config.BODY_LIMIT_BYTES,
    // genReqId reads X-Request-Id itself and keeps only a safe one.
    requestIdHeader: false,
    genReqId: requestId,
    // One line per request instead of Fastify's two, and successful ones sampled (plugins/request-log.ts).
    logController: new LogController({ disableRequestLogging: true }),
    // A request's child logger is made when the request first logs (lazy-child-logger.ts).
    childLoggerFactory: lazyChildLoggerFactory,
    // Slow clients must not hold sockets forever. Node enforces requestTimeout only as often as it
    // checks its connections (every 30 s unless told), and waits up to 60 s for headers.
    connectionTimeout: config.HTTP_IDLE_TIMEOUT_MS,
    requestTimeout: config.HTTP_REQUEST_TIMEOUT_MS,
    keepAliveTimeout: config.HTTP_KEEP_ALIVE_TIMEOUT_MS,
    http: { connectionsCheckingInterval: 1000, headersTimeout: Math.min(10_000, config.HTTP_REQUEST_TIMEOUT_MS) },
    // Only the configured proxies may name the client, whose address the per-address limit counts.
    trustProxy: config.TRUST_PROXY ? config.TRUST_PROXY.split(',') : false,
    routerOptions: { ignoreTrailingSlash: true },
    // While closing, requests on open connections are served (and their connection closed, see
    // onSend) instead of Fastify's own 503 body, which is not our Error object.
    return503OnClosing: false,
    clientErrorHandler: answerClientError,
    frameworkErrors: answerFrameworkError,
  }).withTypeProvider<TypeBoxTypeProvider>();

  // JSON only: a text/plain body answers 415 instead of reaching the validator as a string.
  app.removeContentTypeParser('text/plain');
  // An empty body with a JSON content type (common for PUT claim) counts as no body.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => (body === '' ? done(null, undefined) : parseJson(request, body as string, done)));
  installValidators(app);
  installErrorHandler(app);
  installRequestLog(app, { successSampleRate: config.LOG_SUCCESS_SAMPLE_RATE });
  installReadTimeout(app, { ms: config.HANDLER_TIMEOUT_MS });
  for (const schema of [ErrorSchema, ImageSchema, ListingSchema, ListingSummarySchema, SolrResultSchema, OfferSchema, ReviewSchema, WebhookSchema]) app.addSchema(schema);
  // While shutting down, answers close their keep-alive connection, so that in-flight requests
  // finish and the server can stop without waiting for idle clients (keep-alive is 72 s).
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('x-request-id', request.id);
    if (closing) reply.header('connection', 'close');
    done(null, payload);
  });

  installSecurityHeaders(app);
  // Every route, public and unknown ones included, is limited per client address before it costs
  // anything more; then unknown routes are answered without reading their body.
  installAddressRateLimit(app, { max: config.IP_RATE_LIMIT_MAX, windowMs: config.RATE_LIMIT_WINDOW_MS });
  installEarlyAnswers(app, { largeBodyBytes: config.LARGE_BODY_BYTES });
  await installOpenApi(app, { version: config.SERVICE_VERSION });
  installMetrics(app, deps.metrics);
  await app.register(async (media) => {
    // Partner websites embed the images from their own origins; helmet's default is same-origin.
    media.addHook('onRequest', async (_request, reply) => {
      reply.header('cross-origin-resource-policy', 'cross-origin');
    });
    // A file goes out as fast as the client reads it; the read timeout would cut a slow download.
    media.addHook('onRoute', (route) => {
      route.handlerTimeout = undefined;
    });
    await media.register(mediaRoutes, { images: deps.images, cacheMaxAgeSeconds: config.MEDIA_CACHE_MAX_AGE_S });
  });
  await app.register(healthRoutes, { readiness: deps.readiness });
  const keyRateLimit = createKeyRateLimit({ redis: deps.redis, namespace: keyRateLimitNamespace(config.QUEUE_PREFIX), max: config.RATE_LIMIT_MAX, windowMs: config.RATE_LIMIT_WINDOW_MS });
  // One count of failed authentications per address for every scope (docs/contract.md §11).
  const authFailures = createAuthFailureLimit({ redis: deps.redis, namespace: authFailureNamespace(config.QUEUE_PREFIX), max: config.AUTH_FAILURE_LIMIT, windowMs: config.RATE_LIMIT_WINDOW_MS });
  // One set of large-body slots for the instance, whichever scope a body arrives in.
  const largeBodyGate = createLargeBodyGate({
    thresholdBytes: config.LARGE_BODY_BYTES,
    concurrency: config.LARGE_BODY_CONCURRENCY,
    waitMs: config.LARGE_BODY_WAIT_MS,
    timeoutMs: config.LARGE_BODY_TIMEOUT_MS,
  });
  await app.register(
    async (countryScope) => {
      // Hooks run in this order: authentication, the per-key limit, then (preParsing) the gate
      // of large bodies, so that only a valid key is counted or ever holds a slot.
      installCountryAuth(countryScope, { partners: deps.partners, countries: config.countries, authFailures });
      keyRateLimit(countryScope);
      largeBodyGate(countryScope);
      installIdempotency(countryScope, { db: deps.database.db, leaseMs: config.IDEMPOTENCY_LEASE_MS, largeBodyBytes: config.LARGE_BODY_BYTES });
      await countryScope.register(listingRoutes, { listings: deps.listings, history: deps.history });
      await countryScope.register(workflowRoutes, { claims: deps.claims, offers: deps.offers, mappings: deps.mappings });
      await countryScope.register(imageRoutes, { images: deps.images });
      await countryScope.register(reviewRoutes, { reviews: deps.reviews });
      await countryScope.register(searchRoutes, { search: deps.search });
      await countryScope.register(suggestRoutes, { suggest: deps.suggest });
      await countryScope.register(matchRoutes, { match: deps.match });
      await countryScope.register(categoryRoutes, { categories: deps.categories });
      await countryScope.register(changeRoutes, { changes: deps.changes });
      await countryScope.register(exportRoutes, {
        exports: deps.exports,
        limits: { concurrency: config.EXPORT_CONCURRENCY, waitMs: config.EXPORT_WAIT_MS, stallMs: config.EXPORT_STALL_MS, maxMs: config.EXPORT_MAX_MS },
      });
      await countryScope.register(importRoutes, { imports: deps.imports, bodyTimeoutMs: config.HTTP_REQUEST_TIMEOUT_MS });
    },
    { prefix: '/:country' },
  );
  // Webhooks belong to the partner, not to a country (docs/contract.md §15): same key checks and limits.
  await app.register(async (partnerScope) => {
    installPartnerAuth(partnerScope, { partners: deps.partners, authFailures });
    keyRateLimit(partnerScope);
    largeBodyGate(partnerScope);
    await partnerScope.register(webhookRoutes, { webhooks: deps.webhooks });
  });
  // The analysts' door to the index (docs/contract.md §22): analyst and admin keys, the same limits.
  await app.register(async (analyticsScope) => {
    installAnalyticsAuth(analyticsScope, { partners: deps.partners, authFailures });
    keyRateLimit(analyticsScope);
    largeBodyGate(analyticsScope);
    await analyticsScope.register(analyticsRoutes, { analytics: deps.analytics });
  });

  return app;
}

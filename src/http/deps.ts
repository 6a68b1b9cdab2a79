// Wires the long-lived clients and services of the API process from the configuration.
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { createAnalyticsService, type AnalyticsService } from '../analytics/analytics-service.js';
import { createCategoriesService, type CategoriesService } from '../categories/categories-service.js';
import { createChangesService, type ChangesService } from '../changes/changes-service.js';
import { databaseTimeouts, publicUrls, webhookTargetPolicy, type Config } from '../platform/config.js';
import { createDatabase, type Database } from '../db/client.js';
import { createListingWrites, type ListingWrites } from '../listings/change-listing.js';
import { createClaimsService, type ClaimsService } from '../listings/claims-service.js';
import { createExportService, type ExportService } from '../listings/export-service.js';
import { createHistoryService, type HistoryService } from '../listings/history-service.js';
import { createListingsService, type ListingsService } from '../listings/listings-service.js';
import { createMatchService, type MatchService } from '../match/match-service.js';
import { createMappingsService, type MappingsService } from '../listings/mappings-service.js';
import { createOffersService, type OffersService } from '../listings/offers-service.js';
import { createMediaStore } from '../media/create-media-store.js';
import { createImagesService, type ImagesService } from '../media/images-service.js';
import { createImportQueue } from '../imports/import-queue.js';
import { createImportsService, type ImportsService } from '../imports/imports-service.js';
import { createReadiness } from '../platform/health.js';
import { createMetrics, type Metrics } from '../platform/metrics.js';
import { createOpenSearchClient, type OpenSearchClient } from '../opensearch/client.js';
import { indexNames, type IndexNames } from '../opensearch/index-definitions.js';
import { createPublisher } from '../outbox/publisher.js';
import { createIndexQueue, type IndexQueue } from '../outbox/queue.js';
import { followRevokedKeys, revocationChannel, type RevokedKeysFollower } from '../partners/key-revocations.js';
import { createPartnersService, type PartnersService } from '../partners/partners-service.js';
import { createReviewsService, type ReviewsService } from '../reviews/reviews-service.js';
import { createOpenZones } from '../search/open-zones.js';
import { createSearchService, type SearchService } from '../search/search-service.js';
import { createSuggestService, type SuggestService } from '../search/suggest-service.js';
import { secretBoxOf } from '../webhooks/secret-box.js';
import { createWebhooksService, type WebhooksService } from '../webhooks/webhooks-service.js';

export interface ApiDeps {
  database: Database;
  redis: Redis;
  opensearch: OpenSearchClient;
  names: IndexNames;
  queue: Pick<IndexQueue, 'enqueue'>;
  metrics: Metrics;
  /** The services that do not answer, checked at most once per READINESS_CACHE_MS (/readyz). */
  readiness: () => Promise<string[]>;
  search: SearchService;
  suggest: SuggestService;
  match: MatchService;
  partners: PartnersService;
  revokedKeys: RevokedKeysFollower;
  /** The unit of work every listing workflow writes through (change-listing.ts). */
  listingWrites: ListingWrites;
  listings: ListingsService;
  history: HistoryService;
  claims: ClaimsService;
  offers: OffersService;
  mappings: MappingsService;
  images: ImagesService;
  reviews: ReviewsService;
  categories: CategoriesService;
  webhooks: WebhooksService;
  changes: ChangesService;
  exports: ExportService;
  analytics: AnalyticsService;
  imports: ImportsService;
  close(): Promise<void>;
}

export interface ApiDepsOverrides {
  /** Replaces the queue producer; tests use it to make the enqueue fail. */
  queue?: Pick<IndexQueue, 'enqueue'>;
}

export function createApiDeps(config: Config, logger: Logger, overrides: ApiDepsOverrides = {}): ApiDeps {
  const database = createDatabase(config.DATABASE_URL, config.DATABASE_POOL_SIZE, databaseTimeouts(config));
  const redis = new Redis(config.REDIS_URL, { enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: false });
  redis.on('error', () => {});
  const opensearch = createOpenSearchClient(config.OPENSEARCH_URL);
  const indexQueue = createIndexQueue(config.REDIS_URL, config.QUEUE_PREFIX);
  const queue = overrides.queue ?? indexQueue;
  const publish = createPublisher(queue, logger);
  const names = indexNames(config.INDEX_PREFIX);
  const writes = createListingWrites({ db: database.db, publish });
  const listings = createListingsService({ db: database.db, writes, urls: publicUrls(config) });
  const partners = createPartnersService({ db: database.db, cacheMs: config.AUTH_CACHE_MS });
  const revokedKeys = followRevokedKeys({ redisUrl: config.REDIS_URL, channel: revocationChannel(config.QUEUE_PREFIX), partners, logger });
  const importQueue = createImportQueue(config.REDIS_URL, config.QUEUE_PREFIX);
  const metrics = createMetrics({ db: database.db, queue: indexQueue, cacheMs: config.METRICS_CACHE_MS });
  return {
    database,
    redis,
    opensearch,
    names,
    queue,
    metrics,
    readiness: createReadiness({ pool: database.pool, redis, opensearch }, config.READINESS_CACHE_MS),
    search: createSearchService({ opensearch, names, logger, openZones: createOpenZones({ opensearch, names, ttlMs: config.OPEN_ZONES_TTL_MS }) }),
    suggest: createSuggestService({ opensearch, names, logger }),
    match: createMatchService({ opensearch, names, logger }),
    partners,
    revokedKeys,
    listingWrites: writes,
    listings,
    history: createHistoryService({ db: database.db, urls: publicUrls(config) }),
    claims: createClaimsService({ writes }),
    offers: createOffersService({ db: database.db, writes }),
    mappings: createMappingsService({ db: database.db }),
    images: createImagesService({ db: database.db, writes, store: createMediaStore(config), mediaBaseUrl: config.PUBLIC_MEDIA_BASE_URL, limits: imageLimits(config) }),
    reviews: createReviewsService({ db: database.db, writes, maxPerPartner: config.REVIEWS_PER_PARTNER_PER_LISTING }),
    categories: createCategoriesService({ opensearch, names, listings }),
    webhooks: createWebhooksService({
      db: database.db,
      countries: config.countries,
      policy: webhookTargetPolicy(config),
      secrets: secretBoxOf(config.WEBHOOK_SECRET_KEY, logger),
      limits: { pingsPerMinute: config.WEBHOOK_PINGS_PER_MINUTE, deliveriesKept: config.WEBHOOK_DELIVERIES_KEPT },
    }),
    changes: createChangesService({ db: database.db }),
    exports: createExportService({ db: database.db, pool: database.pool, urls: publicUrls(config) }),
    analytics: createAnalyticsService({ opensearch, names, countries: config.countries, metrics, timeoutMs: config.ANALYTICS_TIMEOUT_MS }),
    imports: createImportsService({ db: database.db, pool: database.pool, queue: importQueue, limits: { maxItems: config.IMPORT_MAX_ITEMS, maxBytes: config.IMPORT_MAX_BYTES } }),
    async close() {
      revokedKeys.close();
      await indexQueue.close();
      await importQueue.close();
      redis.disconnect();
      await opensearch.close();
      await database.close();
    },
  };
}

const imageLimits = (config: Config) => ({ maxBytes: config.IMAGE_MAX_BYTES, maxWidth: config.IMAGE_MAX_WIDTH, maxHeight: config.IMAGE_MAX_HEIGHT, maxPixels: config.IMAGE_MAX_PIXELS });

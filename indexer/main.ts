// The indexer process: consumes index jobs, runs bulk imports, relays stranded outbox events, numbers committed
// changes for the change feed, fans them out into webhook deliveries and sends them, answers
// health checks on INDEXER_PORT, and on SIGTERM/SIGINT finishes its current jobs before exiting.
import closeWithGrace from 'close-with-grace';
import { Redis } from 'ioredis';
import { databaseTimeouts, indexLayout, loadConfig, publicUrls, webhookSlotLimits, webhookTargetPolicy } from '../src/platform/config.js';
import { createDatabase } from '../src/db/client.js';
import { createReadiness } from '../src/platform/health.js';
import { createLogger } from '../src/platform/logger.js';
import { createMediaStore } from '../src/media/create-media-store.js';
import { createMetrics } from '../src/platform/metrics.js';
import { createOpsServer, listenOps } from '../src/platform/ops-server.js';
import { createOpenSearchClient } from '../src/opensearch/client.js';
import { indexNames } from '../src/opensearch/index-definitions.js';
import { ensureListingsIndices } from '../src/opensearch/index-setup.js';
import { createIndexQueue } from '../src/outbox/queue.js';
import { createDeliveryQueue } from '../src/webhooks/delivery-queue.js';
import { parseRetrySchedule } from '../src/webhooks/retry-schedule.js';
import { createListingWrites } from '../src/listings/change-listing.js';
import { createListingsService } from '../src/listings/listings-service.js';
import { createPublisher } from '../src/outbox/publisher.js';
import { sealStoredSecrets } from '../src/webhooks/seal-stored-secrets.js';
import { secretBoxOf } from '../src/webhooks/secret-box.js';
import { startHousekeeping } from './housekeeping.js';
import { createImportRunner, startImportWorker } from './import-runner.js';
import { createListingSync, syncListings, type SyncDeps } from './listing-sync.js';
import { startRelay } from './relay.js';
import { startDeliverySweeper, startDeliveryWorker } from './webhook-delivery.js';
import { startDispatcher } from './webhook-dispatch.js';
import { startSequencer } from './sequencer.js';
import { startWorker } from './worker.js';

/** How often due webhook deliveries whose job went missing are looked for. */
const SWEEP_INTERVAL_MS = 1000;

const config = loadConfig();
const logger = createLogger(config.LOG_LEVEL, 'indexer');
const database = createDatabase(config.DATABASE_URL, config.DATABASE_POOL_SIZE, databaseTimeouts(config));
const opensearch = createOpenSearchClient(config.OPENSEARCH_URL);
const probeRedis = new Redis(config.REDIS_URL, { enableOfflineQueue: false, maxRetriesPerRequest: 1 });
probeRedis.on('error', () => {});

// OpenSearch may be down when the indexer starts: set the indices up in the background, retrying,
// while jobs fail and back off until it answers (nothing is lost: the outbox keeps them).
void (async () => {
  for (let attempt = 1; ; attempt++) {
    try {
      await ensureListingsIndices(opensearch, config.INDEX_PREFIX, config.countries, indexLayout(config));
      return;
    } catch (err) {
      logger.warn({ err: (err as Error).message, attempt }, 'index setup failed; retrying');
      await new Promise((resolve) => setTimeout(resolve, Math.min(30_000, 1000 * attempt)));
    }
  }
})();
const queue = createIndexQueue(config.REDIS_URL, config.QUEUE_PREFIX);
const metrics = createMetrics({ db: database.db, queue, cacheMs: config.METRICS_CACHE_MS });
const syncDeps: SyncDeps = {
  db: database.db,
  opensearch,
  names: indexNames(config.INDEX_PREFIX),
  urls: publicUrls(config),
  logger,
  metrics,
  batch: { maxItems: config.INDEXER_BATCH_SIZE, maxWaitMs: config.INDEXER_BATCH_WAIT_MS },
};
const sync = createListingSync(syncDeps);
const worker = startWorker({ redisUrl: config.REDIS_URL, prefix: config.QUEUE_PREFIX, concurrency: config.INDEXER_CONCURRENCY, sync, logger, metrics });
// The indexer removes the files the API wrote: with MEDIA_DRIVER=local both must share MEDIA_DIR.
const housekeeping = startHousekeeping({
  db: database.db,
  media: { store: createMediaStore(config), graceMs: config.MEDIA_CLEANUP_GRACE_MS },
  retention: {
    changeRetentionDays: config.CHANGE_RETENTION_DAYS,
    historyRetentionDays: config.HISTORY_RETENTION_DAYS,
    deliveriesPerWebhook: config.WEBHOOK_DELIVERIES_KEPT,
  },
  logger,
});
const relay = startRelay({
  db: database.db,
  queue,
  logger,
  graceMs: config.RELAY_GRACE_MS,
  intervalMs: config.RELAY_INTERVAL_MS,
  recentMs: config.RELAY_RECENT_MS,
});
// Webhooks (docs/contract.md §15): the dispatcher turns feed changes into deliveries, a worker of
// its own sends them (a slow receiver never delays indexing, nor, past its partner's cap, other
// partners' webhooks), the sweeper re-enqueues lost ones.
const deliveryQueue = createDeliveryQueue(config.REDIS_URL, config.QUEUE_PREFIX);
const webhookSecrets = secretBoxOf(config.WEBHOOK_SECRET_KEY, logger);
// Secrets written in clear text before they were sealed: sealed once, in the background; they
// sign meanwhile as they are (src/webhooks/seal-stored-secrets.ts).
sealStoredSecrets(database.db, webhookSecrets).then(
  (count) => count && logger.info({ count }, 'sealed clear-text webhook secrets'),
  (err) => logger.warn({ err }, 'sealing clear-text webhook secrets failed; they keep signing, the next start tries again'),
);
const dispatcher = startDispatcher({ db: database.db, queue: deliveryQueue, logger, intervalMs: config.WEBHOOK_DISPATCH_INTERVAL_MS });
const deliveryWorker = startDeliveryWorker({
  db: database.db,
  queue: deliveryQueue,
  logger,
  policy: webhookTargetPolicy(config),
  timeoutMs: config.WEBHOOK_TIMEOUT_MS,
  secrets: webhookSecrets,
  schedule: parseRetrySchedule(config.WEBHOOK_RETRY_SCHEDULE_MS),
  redisUrl: config.REDIS_URL,
  prefix: config.QUEUE_PREFIX,
  concurrency: config.WEBHOOK_CONCURRENCY,
  limits: webhookSlotLimits(config),
});
const sweeper = startDeliverySweeper({ db: database.db, queue: deliveryQueue, logger, graceMs: config.WEBHOOK_SWEEP_GRACE_MS, intervalMs: SWEEP_INTERVAL_MS });
// Bulk imports (docs/contract.md §19) run here, through the same listing writes as the API's.
const importWrites = createListingWrites({ db: database.db, publish: createPublisher(queue, logger) });
const importWorker = startImportWorker({
  db: database.db,
  redisUrl: config.REDIS_URL,
  prefix: config.QUEUE_PREFIX,
  concurrency: config.IMPORT_CONCURRENCY,
  sweepIntervalMs: config.IMPORT_SWEEP_INTERVAL_MS,
  logger,
  runner: createImportRunner({
    db: database.db,
    writes: importWrites,
    logger,
    batchSize: config.IMPORT_BATCH_SIZE,
    batchBytes: config.IMPORT_BATCH_BYTES,
    index: (events) => syncListings(syncDeps, events),
    listings: createListingsService({ db: database.db, writes: importWrites, urls: publicUrls(config) }),
  }),
});
const sequencer = startSequencer({ db: database.db, logger, intervalMs: config.CHANGE_SEQUENCER_INTERVAL_MS });

// The indexer's own operations port: liveness, readiness and metrics (src/platform/ops-server.ts).
const health = createOpsServer({
  registry: metrics.registry,
  token: config.METRICS_TOKEN,
  readiness: createReadiness({ pool: database.pool, redis: probeRedis, opensearch }, config.READINESS_CACHE_MS),
});
await listenOps(health, config.INDEXER_PORT, config.HOST);
logger.info(
  {
    port: config.INDEXER_PORT,
    concurrency: config.INDEXER_CONCURRENCY,
    batchSize: config.INDEXER_BATCH_SIZE,
    batchWaitMs: config.INDEXER_BATCH_WAIT_MS,
  },
  'indexer started',
);

closeWithGrace({ delay: 30_000 }, async ({ signal, err }) => {
  if (err) logger.error({ err }, 'closing after an error');
  else logger.info({ signal }, 'closing: finishing current jobs');
  housekeeping.stop();
  await relay.stop();
  await dispatcher.stop();
  await sweeper.stop();
  await sequencer.stop();
  await worker.close();
  // A run stops after its current batch; the next indexer resumes it at the first unapplied line.
  await importWorker.close();
  // Attempts in flight finish (within WEBHOOK_TIMEOUT_MS); an unfinished one is retried by the sweeper.
  await deliveryWorker.close();
  await deliveryQueue.close();
  await queue.close();
  health.close();
  probeRedis.disconnect();
  await opensearch.close();
  await database.close();
});

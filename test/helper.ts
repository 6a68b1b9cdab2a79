// Builds the real app on the real services (test database, test index prefix, test queue prefix
// set by scripts/test.sh) and tears it down after the test.
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Test } from 'tap';
import { createImportRunner, startImportWorker } from '../indexer/import-runner.js';
import { createListingSync, syncListings, type SyncDeps } from '../indexer/listing-sync.js';
import { startRelay } from '../indexer/relay.js';
import { startWorker } from '../indexer/worker.js';
import { buildApp } from '../src/http/app.js';
import { indexLayout, loadConfig, publicUrls, type Config } from '../src/platform/config.js';
import { createApiDeps, type ApiDeps, type ApiDepsOverrides } from '../src/http/deps.js';
import { createLogger, type Logger } from '../src/platform/logger.js';
import { indexNames } from '../src/opensearch/index-definitions.js';
import { ensureListingsIndices } from '../src/opensearch/index-setup.js';
import { createIndexQueue } from '../src/outbox/queue.js';
import type { Role } from '../src/partners/partners-service.js';
import type { ListingInput } from '../src/schemas/listing.js';

export const config = loadConfig();
export const logger = createLogger(process.env.LOG_LEVEL ?? 'silent', 'test');
export const names = indexNames(config.INDEX_PREFIX);
export const runId = randomUUID().slice(0, 8);

export interface TestApp {
  app: FastifyInstance;
  deps: ApiDeps;
  /** Creates a partner and returns its Authorization header. */
  partner(role?: Role): Promise<{ id: number; auth: { authorization: string } }>;
}

export async function build(t: Test, overrides: ApiDepsOverrides & { config?: Partial<Config>; logger?: Logger } = {}): Promise<TestApp> {
  const appConfig = { ...config, ...overrides.config };
  const appLogger = overrides.logger ?? logger;
  const deps = createApiDeps(appConfig, appLogger, overrides);
  await ensureListingsIndices(deps.opensearch, config.INDEX_PREFIX, config.countries, indexLayout(config));
  const app = await buildApp({ config: appConfig, logger: appLogger, deps });
  t.teardown(async () => {
    await app.close();
    await deps.close();
  });
  let n = 0;
  return {
    app,
    deps,
    async partner(role: Role = 'partner') {
      const { id, key } = await deps.partners.create(`test-${runId}-${role}-${++n}`, role);
      return { id, auth: { authorization: `Bearer ${key}` } };
    },
  };
}

/**
 * Runs the real indexer (worker and relay) in this process until the test ends. Returns once the
 * backlog that earlier test files left in the queue is drained, so latencies are measured under
 * normal load.
 */
export async function startIndexer(t: Test, deps: ApiDeps, opts: { relayIntervalMs?: number } = {}) {
  // The indexer's own settings: jobs meet in batches as in production.
  const sync = createListingSync(indexSyncDeps(deps));
  const worker = startWorker({ redisUrl: config.REDIS_URL, prefix: config.QUEUE_PREFIX, concurrency: config.INDEXER_CONCURRENCY, sync, logger, metrics: deps.metrics });
  const queue = createIndexQueue(config.REDIS_URL, config.QUEUE_PREFIX);
  const relay = startRelay({ db: deps.database.db, queue, logger, graceMs: 500, intervalMs: opts.relayIntervalMs ?? 300, recentMs: config.RELAY_RECENT_MS });
  t.teardown(async () => {
    await relay.stop();
    await worker.close();
    await queue.close();
  });
  await eventually(
    async () => {
      const counts = await queue.queue.getJobCounts('waiting', 'active', 'delayed', 'prioritized');
      return Object.values(counts).every((n) => n === 0) ? true : undefined;
    },
    60_000,
    'the index queue to drain',
  );
  return { sync, worker: worker.worker };
}

/** What the indexer's listing sync works with, as indexer/main.ts gives it. */
const indexSyncDeps = (deps: ApiDeps): SyncDeps => ({
  db: deps.database.db,
  opensearch: deps.opensearch,
  names,
  urls: publicUrls(config),
  logger,
  metrics: deps.metrics,
  batch: { maxItems: config.INDEXER_BATCH_SIZE, maxWaitMs: config.INDEXER_BATCH_WAIT_MS },
});

/** Runs the indexer's bulk-import runner (indexer/import-runner.ts) in this process until the test ends. */
export function startImportRunner(t: Test, deps: ApiDeps, opts: { batchSize?: number; batchBytes?: number } = {}) {
  const runner = createImportRunner({
    db: deps.database.db,
    listings: deps.listings,
    writes: deps.listingWrites,
    logger,
    batchSize: opts.batchSize ?? config.IMPORT_BATCH_SIZE,
    batchBytes: opts.batchBytes ?? config.IMPORT_BATCH_BYTES,
    // The indexer's own index writes for its batches (indexer/main.ts).
    index: (events) => syncListings(indexSyncDeps(deps), events),
  });
  const worker = startImportWorker({
    db: deps.database.db,
    runner,
    redisUrl: config.REDIS_URL,
    prefix: config.QUEUE_PREFIX,
    concurrency: config.IMPORT_CONCURRENCY,
    sweepIntervalMs: 300,
    logger,
  });
  t.teardown(() => worker.close());
  return runner;
}

/**
 * How long the tests wait for a write to reach the index, or a search. It goes through commit,
 * queue, the batch wait and _bulk (and, for a search, the 1 s refresh), which a loaded CI machine
 * stretches; the 2 s target is measured by the benchmark (bench/RESULTS.md), not here.
 */
export const INDEXED_WITHIN_MS = 10_000;

/** Polls `probe` until it returns a value other than undefined, or fails after `timeoutMs`. */
export async function eventually<T>(probe: () => Promise<T | undefined>, timeoutMs = 5000, what = 'condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Makes every shard copy of a country's index searchable up to now. A search that found the
 * writes was answered by one copy; on a cluster the other copy refreshes on its own second
 * (npm run test:cluster), so a next search sent to it could still miss them for a moment.
 */
export async function refreshEveryCopy(deps: ApiDeps, country: string): Promise<void> {
  await deps.opensearch.indices.refresh({ index: names.listingsAlias(country) });
}

/** The OpenSearch document of a listing (real-time get), or null when absent. */
export async function indexedDocument(deps: ApiDeps, country: string, id: string | number) {
  const res = await deps.opensearch.get({ index: names.listingsAlias(country), id: `${country}:${id}` }, { ignore: [404] });
  const body = res.body as { found?: boolean; _source?: Record<string, unknown>; _version?: number };
  return body.found ? { source: body._source!, version: body._version! } : null;
}

/**
 * Fields of listing `id`'s document read from doc values, for the fields the mapping leaves out of
 * `_source` (docs/analytics.md): each an array, as OpenSearch answers, [] when the document has no
 * value; null without a document.
 */
export async function indexedDocValues(deps: ApiDeps, country: string, id: string | number, fields: string[]): Promise<Record<string, unknown[]> | null> {
  // A search sees the document only once a refresh made it visible (a get sees it at once).
  await deps.opensearch.indices.refresh({ index: names.listingsAlias(country) });
  const res = await deps.opensearch.search({
    index: names.listingsAlias(country),
    body: { size: 1, _source: false, query: { ids: { values: [`${country}:${id}`] } }, docvalue_fields: fields },
  });
  const hit = (res.body.hits.hits as { fields?: Record<string, unknown[]> }[])[0];
  return hit ? Object.fromEntries(fields.map((field) => [field, hit.fields?.[field] ?? []])) : null;
}

/** The map tiles of listing `id`'s document, from doc values, sorted; null without a document. */
export async function indexedTiles(deps: ApiDeps, country: string, id: string | number): Promise<string[] | null> {
  const values = await indexedDocValues(deps, country, id, ['tiles']);
  return values ? (values.tiles as string[]).sort() : null;
}

/**
 * Inserts `count` listings created and claimed by one partner straight into the database, each
 * with a description of `descriptionBytes` (0: none): for tests of size, such as an export too
 * large for the socket buffers. They reach no outbox, feed or index, and no other test may meet
 * them: call the returned function in the test's teardown, which deletes them again.
 */
export async function insertBulkListings(
  deps: ApiDeps,
  {
    country,
    partnerId,
    count,
    descriptionBytes = 0,
  }: {
    country: string;
    partnerId: number;
    count: number;
    descriptionBytes?: number;
  },
): Promise<() => Promise<void>> {
  const { db } = deps.database;
  await db.execute(sql`
    insert into listings (country, name, address, zip, place, description, hours, created_by, claimed_by, version)
    select ${country}, 'Massenware ' || g || ' ' || ${runId}, 'Ring ' || g, '1010', 'Wien', nullif(repeat('x', ${descriptionBytes}), ''), '{}'::jsonb, ${partnerId}, ${partnerId}, 1
    from generate_series(1, ${count}) g`);
  await db.execute(sql`
    insert into listing_categories (listing_id, position, country, category_id)
    select id, 0, ${country}, 'shop/bakery' from listings where claimed_by = ${partnerId}`);
  return async () => {
    await db.execute(sql`delete from listings where claimed_by = ${partnerId}`);
  };
}

export function listingInput(overrides: Partial<ListingInput> = {}): ListingInput {
  return {
    name: `Bäckerei Test ${runId}`,
    address: 'Hauptstraße 12a',
    zip: '10115',
    place: 'Berlin',
    latitude: 52.52,
    longitude: 13.405,
    keywords: ['Brot'],
    description: 'Frisches Brot',
    emails: [{ address: 'info@example.com' }],
    phones: [{ type: 'landline', number: '+493012345678' }],
    links: [{ type: 'website', url: 'https://example.com' }],
    contact: { name: 'Anna', surname: 'Muster', title: '', gender: 'F' },
    hours: {
      monday: [
        { start: '08:00', end: '12:00' },
        { start: '13:00', end: '18:00' },
      ],
    },
    categories: [{ id: 'shop/bakery' }],
    ...overrides,
  };
}

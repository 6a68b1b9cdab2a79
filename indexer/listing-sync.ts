// Makes the OpenSearch documents of listings equal to their current state in PostgreSQL.
// External versioning with the listing version makes this safe to run twice, late or out of
// order: OpenSearch refuses (409) anything not newer than what it holds.
//
// Jobs arrive one at a time (the worker runs many at once) and go through a micro-batcher: a batch
// costs one PostgreSQL read, one `_bulk` and one outbox update, whatever its size (docs/architecture.md,
// "The indexer").
import type { Logger } from 'pino';
import type { Db } from '../src/db/client.js';
import type { PublicUrls } from '../src/listings/listing-view.js';
import { loadListingsForIndex } from '../src/listings/listing-reads-dal.js';
import type { ListingForIndex } from '../src/listings/listing-records.js';
import type { Metrics } from '../src/platform/metrics.js';
import type { OpenSearchClient } from '../src/opensearch/client.js';
import type { IndexNames } from '../src/opensearch/index-definitions.js';
import type { SyncListingJob } from '../src/outbox/jobs.js';
import { markEventsProcessedUpTo } from '../src/outbox/outbox-dal.js';
import { writeBulk, type BulkAction } from './bulk-write.js';
import { documentId, listingDocumentOf } from './listing-document.js';
import { createMicroBatcher } from './micro-batcher.js';

export type SyncOutcome = 'indexed' | 'deleted' | 'stale' | 'missing';

export interface SyncDeps {
  db: Db;
  opensearch: OpenSearchClient;
  names: IndexNames;
  urls: PublicUrls;
  logger: Logger;
  /** Absent in one-off tools (the CLI's reindex). */
  metrics?: Pick<Metrics, 'indexJobs' | 'writeToIndexed' | 'indexBulkItems'> | undefined;
  /** How jobs are grouped (INDEXER_BATCH_SIZE, INDEXER_BATCH_WAIT_MS); defaults suit tools and tests. */
  batch?: { maxItems: number; maxWaitMs: number } | undefined;
}

/** The bulk action that brings the document of a stored listing to its state: index it, or delete a soft-deleted one. */
export function listingBulkAction(record: ListingForIndex, index: string, urls: PublicUrls): BulkAction {
  const { row } = record;
  const target = { index, id: documentId(row.country, row.id), version: row.version };
  return row.deletedAt ? { op: 'delete', ...target } : { op: 'index', ...target, document: listingDocumentOf(record, urls) };
}

/**
 * Syncs the listings of `jobs` now, with one read and one `_bulk`; one outcome (or Error, for the
 * job to retry) per job, in order. The micro-batcher calls it for queue jobs; a bulk import's runner
 * calls it for a whole batch of its writes (indexer/import-runner.ts).
 */
export async function syncListings({ db, opensearch, names, urls, logger, metrics }: SyncDeps, jobs: SyncListingJob[]): Promise<(SyncOutcome | Error)[]> {
  // Two jobs of one listing (two versions) sync it once: its current row is the newest version.
  const ids = [...new Set(jobs.map((job) => job.listingId))];
  const records = await loadListingsForIndex(db, ids);
  const found = ids.filter((id) => records.has(id)).map((id) => records.get(id)!);
  const written = await writeBulk(
    opensearch,
    found.map((r) => listingBulkAction(r, names.listingsAlias(r.row.country), urls)),
    logger,
  );
  if (found.length) metrics?.indexBulkItems.observe(found.length);

  const outcomes = new Map<number, SyncOutcome | Error>();
  // Never committed (the transaction rolled back after the event was enqueued): nothing to do.
  const done = ids
    .filter((id) => !records.has(id))
    .map((id) => {
      outcomes.set(id, 'missing');
      return { listingId: id, version: Number.MAX_SAFE_INTEGER };
    });
  found.forEach(({ row }, i) => {
    const result = written[i]!;
    if (result instanceof Error) {
      outcomes.set(row.id, result); // its events stay pending; the job retries with backoff
      return;
    }
    // `stale`: OpenSearch already holds this version or a newer one.
    outcomes.set(row.id, result === 'stale' ? 'stale' : row.deletedAt ? 'deleted' : 'indexed');
    done.push({ listingId: row.id, version: row.version });
    if (result !== 'stale') metrics?.writeToIndexed.observe((Date.now() - row.updatedAt.getTime()) / 1000);
  });
  await markEventsProcessedUpTo(db, done);

  return jobs.map((job) => {
    const outcome = outcomes.get(job.listingId)!;
    if (outcome instanceof Error) return outcome; // counted by the worker's `failed` handler
    metrics?.indexJobs.inc({ outcome });
    logger.debug({ listingId: job.listingId, version: job.version, outcome }, 'listing synced');
    return outcome;
  });
}

/** Returns `sync(job)`, which resolves once the listing's batch is written, or rejects for the job to retry. */
export function createListingSync(deps: SyncDeps) {
  return createMicroBatcher<SyncListingJob, SyncOutcome>({
    maxItems: deps.batch?.maxItems ?? 32,
    maxWaitMs: deps.batch?.maxWaitMs ?? 5,
    flush: (jobs) => syncListings(deps, jobs),
  });
}

export type SyncListing = ReturnType<typeof createListingSync>;

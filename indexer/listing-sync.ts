// Makes the OpenSearch document of one listing equal to its current state in PostgreSQL.
// External versioning with the listing version makes this safe to run twice, late or out of
// order: OpenSearch refuses (409) anything not newer than what it holds.
import type { Logger } from 'pino';
import type { Db } from '../src/db/client.js';
import type { PublicUrls } from '../src/listings/listing-view.js';
import { loadListingRecord } from '../src/listings/listings-dal.js';
import type { Metrics } from '../src/metrics.js';
import type { OpenSearchClient } from '../src/opensearch/client.js';
import type { IndexNames } from '../src/opensearch/index-definitions.js';
import type { SyncListingJob } from '../src/outbox/jobs.js';
import { markEventsProcessed } from '../src/outbox/outbox-dal.js';
import { documentId, listingDocumentOf } from './listing-document.js';

export type SyncOutcome = 'indexed' | 'deleted' | 'stale' | 'missing';

export interface SyncDeps {
  db: Db;
  opensearch: OpenSearchClient;
  names: IndexNames;
  urls: PublicUrls;
  logger: Logger;
  /** Absent in one-off tools (the CLI's reindex). */
  metrics?: Pick<Metrics, 'indexJobs' | 'writeToIndexed'> | undefined;
}

const statusOf = (err: unknown) => (err as { meta?: { statusCode?: number } }).meta?.statusCode;

export function createListingSync({ db, opensearch, names, urls, logger, metrics }: SyncDeps) {
  return async function syncListing(job: SyncListingJob): Promise<SyncOutcome> {
    const record = await loadListingRecord(db, job.listingId);
    if (!record) {
      // Never committed (the transaction rolled back after the event was enqueued): nothing to do.
      await markEventsProcessed(db, job.listingId, Number.MAX_SAFE_INTEGER);
      metrics?.indexJobs.inc({ outcome: 'missing' });
      return 'missing';
    }
    const { row } = record;
    const index = names.listingsAlias(row.country);
    const id = documentId(row.country, row.id);
    const versioning = { version: row.version, version_type: 'external' as const };
    let outcome: SyncOutcome;
    try {
      if (row.deletedAt) {
        await opensearch.delete({ index, id, ...versioning }, { ignore: [404] });
        outcome = 'deleted';
      } else {
        await opensearch.index({ index, id, body: listingDocumentOf(record, urls), ...versioning });
        outcome = 'indexed';
      }
    } catch (err) {
      if (statusOf(err) !== 409) throw err; // OpenSearch down or refusing: retry with backoff
      outcome = 'stale'; // OpenSearch already holds this version or a newer one
    }
    await markEventsProcessed(db, row.id, row.version);
    metrics?.indexJobs.inc({ outcome });
    if (outcome !== 'stale') metrics?.writeToIndexed.observe((Date.now() - row.updatedAt.getTime()) / 1000);
    logger.debug({ listingId: row.id, version: row.version, outcome }, 'listing synced');
    return outcome;
  };
}

export type SyncListing = ReturnType<typeof createListingSync>;

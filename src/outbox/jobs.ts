// The contract between the API (producer) and the indexer (consumer). Jobs carry ids, never
// documents: the worker always indexes the listing's current state from PostgreSQL.
import { Type, type Static } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';

export const INDEX_QUEUE = 'index-listings';
export const SYNC_LISTING_JOB = 'sync-listing';

export const SyncListingJobSchema = Type.Object({
  listingId: Type.Integer({ minimum: 1 }),
  country: Type.String({ pattern: '^[a-z]{2}$' }),
  version: Type.Integer({ minimum: 1 }),
});
export type SyncListingJob = Static<typeof SyncListingJobSchema>;

/** BullMQ job ids must not be digits only nor contain ':'; one id per listing version dedupes re-enqueues. */
export const syncJobId = (job: SyncListingJob) => `listing-${job.listingId}-v${job.version}`;

export function parseSyncListingJob(data: unknown): SyncListingJob {
  if (!Value.Check(SyncListingJobSchema, data)) throw new Error(`malformed ${SYNC_LISTING_JOB} job: ${JSON.stringify(data)}`);
  return data;
}

// Zero-downtime rebuild of a country's index from PostgreSQL (the minimal distribution has no
// _reindex): bulk-load a new index with external versions, swap the aliases atomically, then
// catch up the writes made meanwhile and drop the old index. Searches answer throughout.
//
// Why the catch-up misses no write, however long its transaction ran: before the copy we take
// PostgreSQL's snapshot S (which transactions have committed). Every page of the copy is read
// later, so it sees every transaction S sees: their writes are in the new index. A transaction S
// does not see may have committed before its page was read or after, and may have been indexed
// into the old index by the worker: after the swap, every outbox row whose writing transaction
// (`outbox.txid`) S does not see is marked pending again and synced into the new index. A
// transaction that commits only after that statement began committed after the swap, so its own
// job (published after commit, or relayed) reaches the new index through the alias. Commit order
// is what counts; `created_at` is the transaction's start and says nothing about it.
import type { Logger } from 'pino';
import type { Db } from '../src/db/client.js';
import type { PublicUrls } from '../src/listings/listing-view.js';
import { countLiveListings, liveListingIdsAfter, loadListingsForIndex } from '../src/listings/listing-reads-dal.js';
import { swapAliases } from '../src/opensearch/aliases.js';
import type { OpenSearchClient } from '../src/opensearch/client.js';
import { listingsIndexDefinition, type IndexLayout, type IndexNames } from '../src/opensearch/index-definitions.js';
import { listingsIndexBody } from '../src/opensearch/index-setup.js';
import { currentSnapshot, reopenEventsUnseenBy } from '../src/outbox/outbox-dal.js';
import { BulkItemError, writeBulk } from './bulk-write.js';
import { listingBulkAction, type SyncListing } from './listing-sync.js';

export interface ReindexDeps {
  db: Db;
  opensearch: OpenSearchClient;
  names: IndexNames;
  /** Shards and replicas of the new index (config.ts indexLayout). */
  layout: IndexLayout;
  urls: PublicUrls;
  sync: SyncListing;
  logger: Logger;
}

export interface ReindexResult {
  index: string;
  documents: number;
  caughtUp: number;
  droppedIndices: string[];
}

/** Points where a test can hold the reindex to commit a write in between. */
export type ReindexPhase = 'copied' | 'swapped';

/** Runs `work` up to `attempts` times, waiting 0.5 s, 1 s, 2 s... between tries. */
async function withRetries<T>(work: () => Promise<T>, attempts = 4): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (err) {
      if (attempt >= attempts) throw err;
      await new Promise((resolve) => setTimeout(resolve, 250 * 2 ** attempt));
    }
  }
}

/**
 * Syncs the listings into the (new) index, 16 at a time, each retried; returns those that still
 * failed. Their outbox rows stay pending (sync marks a row done only after indexing it).
 */
async function catchUp(deps: ReindexDeps, country: string, listingIds: number[]): Promise<number[]> {
  const failed: number[] = [];
  for (let i = 0; i < listingIds.length; i += 16) {
    const batch = listingIds.slice(i, i + 16);
    const results = await Promise.allSettled(batch.map((listingId) => withRetries(() => deps.sync({ listingId, country, version: 1 }))));
    results.forEach((r, n) => {
      if (r.status === 'rejected') failed.push(batch[n]!);
    });
  }
  return failed;
}

/**
 * How long one page's bulk request may take before it is tried once more on the next node (the
 * client's rule, for a node lost mid-reindex) and then the reindex fails (and can be run again). A
 * page is megabytes: on a busy node it can take longer than the client's 10 s default, and a retry
 * after a timeout only adds the same work again, so the deadline is generous.
 */
const REINDEX_BULK_TIMEOUT_MS = 120_000;

/** Live listing ids of a country in id order, a page at a time (keyset pagination). */
export async function* listingIdPages(db: Db, country: string, pageSize: number): AsyncGenerator<number[]> {
  let last = 0;
  for (;;) {
    const ids = await liveListingIdsAfter(db, country, last, pageSize);
    if (ids.length === 0) return;
    yield ids;
    last = ids[ids.length - 1]!;
  }
}

/** Bulk-indexes one page of listings into `index`; returns the number of documents written. */
async function indexPage(deps: ReindexDeps, index: string, ids: number[]): Promise<number> {
  const records = await loadListingsForIndex(deps.db, ids);
  // A listing deleted since its id was read becomes a delete (a tombstone with its version).
  const outcomes = await writeBulk(
    deps.opensearch,
    [...records.values()].map((record) => listingBulkAction(record, index, deps.urls)),
    deps.logger,
    { requestTimeoutMs: REINDEX_BULK_TIMEOUT_MS },
  );
  const failed = outcomes.find((outcome) => outcome instanceof BulkItemError); // `stale`: a newer version is already there
  if (failed) throw new Error(`bulk indexing failed: ${failed.message}`, { cause: failed });
  return records.size;
}

export async function reindexCountry(
  deps: ReindexDeps,
  country: string,
  opts: {
    pageSize?: number;
    concurrency?: number;
    onProgress?: (done: number, total: number) => void;
    onPhase?: (phase: ReindexPhase) => Promise<void>;
  } = {},
): Promise<ReindexResult> {
  const { db, opensearch, names, layout, logger } = deps;
  const pageSize = opts.pageSize ?? 1000;
  // Before the first page is read: see the comment at the top.
  const snapshot = await currentSnapshot(db);
  const total = await countLiveListings(db, country);
  const index = names.newListingsIndex(country);
  // No refreshes while loading: fewer, larger segments; searches still read the old index.
  await opensearch.indices.create({
    index,
    body: listingsIndexBody(layout, { refresh_interval: '-1' }),
  });
  await opensearch.cluster.health({ index, wait_for_status: 'yellow', timeout: '30s' });

  let documents = 0;
  // Several pages in flight: PostgreSQL reads of one overlap OpenSearch bulk writes of others.
  const inFlight: Promise<number>[] = [];
  for await (const ids of listingIdPages(db, country, pageSize)) {
    if (inFlight.length >= (opts.concurrency ?? 3)) documents += await inFlight.shift()!;
    opts.onProgress?.(documents, total);
    const page = indexPage(deps, index, ids);
    page.catch(() => {}); // awaited below; this keeps a failure from surfacing before its turn
    inFlight.push(page);
  }
  for (const page of inFlight) documents += await page;
  opts.onProgress?.(documents, total);
  await opts.onPhase?.('copied');

  // One segment: a query looks its typo terms up once per segment, and a bulk load leaves dozens
  // (at 1 000 000 listings, 35 segments cost queries about twice the CPU of one; docs/search.md).
  // It takes about a minute per million listings; later writes add small segments that merge.
  await opensearch.indices.forcemerge({ index, max_num_segments: 1 }, { requestTimeout: 3_600_000 });
  await opensearch.indices.putSettings({ index, body: { index: { refresh_interval: listingsIndexDefinition.settings?.refresh_interval ?? '1s' } } });
  await opensearch.indices.refresh({ index });

  const old = await swapAliases(opensearch, index, [names.listingsAlias(country), names.listingsAllAlias]);

  await opts.onPhase?.('swapped');

  // Writes the copy may have missed, made pending first: if the catch-up below fails, the
  // indexer's relay still delivers them into the new index.
  const changed = await withRetries(() => reopenEventsUnseenBy(db, country, snapshot));
  const failed = await catchUp(deps, country, changed);
  if (old.length) await opensearch.indices.delete({ index: old });
  if (failed.length) {
    logger.error({ country, index, failed: failed.length }, 'reindex catch-up incomplete; the outbox relay delivers the rest');
    throw new Error(`reindex of ${country}: catch-up failed for ${failed.length} of ${changed.length} listings; their outbox events stay pending and the indexer's relay delivers them`);
  }
  logger.info({ country, index, documents, caughtUp: changed.length, dropped: old }, 'reindex done');
  return { index, documents, caughtUp: changed.length, droppedIndices: old };
}

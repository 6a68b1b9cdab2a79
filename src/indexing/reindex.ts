// Zero-downtime rebuild of a country's index from PostgreSQL (the minimal distribution has no
// _reindex): bulk-load a new index with external versions, swap the aliases atomically, then
// catch up the writes made meanwhile and drop the old index. Searches answer throughout.
import { and, asc, count, eq, gt, gte, isNull, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import { listingsIndexDefinition, type IndexNames } from '../../mappings/index.js';
import { listingsIndexBody } from './index-setup.js';
import type { Db } from '../db/client.js';
import { listings, outbox } from '../db/schema.js';
import type { PublicUrls } from '../listings/listing-view.js';
import { loadListingRecords } from '../listings/listings-repository.js';
import type { OpenSearchClient } from '../search/opensearch-client.js';
import { documentId, listingDocumentOf } from './listing-document.js';
import type { SyncListing } from './listing-sync.js';

export interface ReindexDeps {
  db: Db;
  opensearch: OpenSearchClient;
  names: IndexNames;
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

/** Writes made this long before the start are caught up too, against clock skew between statements. */
const CATCH_UP_MARGIN_MS = 5000;

/** Live listing ids of a country in id order, a page at a time (keyset pagination). */
export async function* listingIdPages(db: Db, country: string, pageSize: number): AsyncGenerator<number[]> {
  let last = 0;
  for (;;) {
    const rows = await db.select({ id: listings.id }).from(listings)
      .where(and(eq(listings.country, country), isNull(listings.deletedAt), gt(listings.id, last)))
      .orderBy(asc(listings.id)).limit(pageSize);
    if (rows.length === 0) return;
    yield rows.map((r) => r.id);
    last = rows[rows.length - 1]!.id;
  }
}

export async function countLiveListings(db: Db, country: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(listings).where(and(eq(listings.country, country), isNull(listings.deletedAt)));
  return row!.n;
}

/** Bulk-indexes one page of listings into `index`; returns the number of documents written. */
async function indexPage(deps: ReindexDeps, index: string, ids: number[]): Promise<number> {
  const records = await loadListingRecords(deps.db, ids);
  const body = [...records.values()].flatMap((record) => [
    { index: { _index: index, _id: documentId(record.row.country, record.row.id), version: record.row.version, version_type: 'external' } },
    listingDocumentOf(record, deps.urls),
  ]);
  if (body.length === 0) return 0;
  const res = await deps.opensearch.bulk({ body, filter_path: 'errors,items.*.status,items.*.error' });
  const failed = res.body.errors
    ? res.body.items.filter((item) => Object.values(item)[0]!.status !== 409) // 409: a newer version is already there
    : [];
  if (failed.length) throw new Error(`bulk indexing failed: ${JSON.stringify(Object.values(failed[0]!)[0])}`);
  return records.size;
}

export async function reindexCountry(
  deps: ReindexDeps,
  country: string,
  opts: { pageSize?: number; concurrency?: number; onProgress?: (done: number, total: number) => void } = {},
): Promise<ReindexResult> {
  const { db, opensearch, names, logger } = deps;
  const pageSize = opts.pageSize ?? 1000;
  // The database's clock, the same one that stamps outbox rows.
  const [{ startedAt }] = (await db.execute<{ startedAt: string }>(sql`select now() as "startedAt"`)).rows as [{ startedAt: string }];
  const total = await countLiveListings(db, country);
  const index = names.newListingsIndex(country);
  // No refreshes while loading: fewer, larger segments; searches still read the old index.
  await opensearch.indices.create({
    index,
    body: listingsIndexBody({ refresh_interval: '-1' }),
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

  // One segment: a query looks its typo terms up once per segment, and a bulk load leaves dozens
  // (at 1 000 000 listings, 35 segments cost queries about twice the CPU of one; docs/search.md).
  // It takes about a minute per million listings; later writes add small segments that merge.
  await opensearch.indices.forcemerge({ index, max_num_segments: 1 }, { requestTimeout: 3_600_000 });
  await opensearch.indices.putSettings({ index, body: { index: { refresh_interval: listingsIndexDefinition.settings?.refresh_interval ?? '1s' } } });
  await opensearch.indices.refresh({ index });

  const alias = names.listingsAlias(country);
  const current = await opensearch.indices.getAlias({ name: alias }, { ignore: [404] });
  const old = current.statusCode === 404 ? [] : Object.keys(current.body as object);
  await opensearch.indices.updateAliases({
    body: {
      actions: [
        ...old.flatMap((o) => [{ remove: { index: o, alias } }, { remove: { index: o, alias: names.listingsAllAlias } }]),
        { add: { index, alias } },
        { add: { index, alias: names.listingsAllAlias } },
      ],
    },
  });

  // Writes committed since the start may have reached only the old index: index them again.
  const changed = await db.selectDistinct({ listingId: outbox.listingId }).from(outbox)
    .where(and(eq(outbox.country, country), gte(outbox.createdAt, new Date(new Date(startedAt).getTime() - CATCH_UP_MARGIN_MS))));
  for (let i = 0; i < changed.length; i += 16) {
    await Promise.all(changed.slice(i, i + 16).map(({ listingId }) => deps.sync({ listingId, country, version: 1 })));
  }
  if (old.length) await opensearch.indices.delete({ index: old });
  logger.info({ country, index, documents, caughtUp: changed.length, dropped: old }, 'reindex done');
  return { index, documents, caughtUp: changed.length, droppedIndices: old };
}

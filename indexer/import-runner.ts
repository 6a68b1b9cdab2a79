// Runs bulk imports (docs/contract.md §19) in the indexer process. A queue job names a partner; its
// run takes the partner's unfinished imports oldest first, so a partner's jobs run one at a time
// in submission order while IMPORT_CONCURRENCY partners run side by side. Each batch of lines is
// one transaction that applies them through the listing writes every single write uses
// (src/listings/listings-service.ts) and records each line's outcome and the job's counters: a run
// killed at any point resumes at the first line without an outcome and applies no line twice.
// The runner writes a committed batch's index documents itself, while it applies the next batch, and
// finishes a job once they are written: a job that is done is searchable.
import { Worker } from 'bullmq';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { Db, DbOrTx } from '../src/db/client.js';
import { createImportQueue, IMPORT_QUEUE, parseRunImportsJob } from '../src/imports/import-queue.js';
import { checkImportLine, readImportLine, type ParsedLine, type ReadLine } from '../src/imports/import-line.js';
import { lineFingerprint } from '../src/imports/import-fingerprint.js';
import {
  addCounts,
  analyzeImportLines,
  deleteAbandonedUploads,
  listingsNotNamedBy,
  lockImport,
  markFinished,
  markRunning,
  oldestUnfinishedImport,
  partnersWithUnfinishedImports,
  pendingLines,
  recordLineOutcomes,
  type CountsDelta,
  type ImportRow,
  type LineError,
  type LineOutcomeRow,
  type LineStatus,
} from '../src/imports/imports-dal.js';
import { MAX_LINE_BYTES } from '../src/imports/imports-service.js';
import type { ListingWrites, WriteOptions } from '../src/listings/change-listing.js';
import type { ListingsService } from '../src/listings/listings-service.js';
import type { Listing } from '../src/listings/listing-view.js';
import type { CreatedVersion } from '../src/listings/batch-create-dal.js';
import { findMappingsForImport, recordImportFingerprints, type MappedForImport } from '../src/listings/mappings-dal.js';
import { isClaimedByOther } from '../src/listings/ownership.js';
import type { SyncListingJob } from '../src/outbox/jobs.js';
import type { Caller } from '../src/partners/partners-service.js';
import { findPartnerById } from '../src/partners/keys-dal.js';
import { refusedDataState } from '../src/db/pg-errors.js';
import { AppError } from '../src/platform/errors.js';
import { runEvery } from './periodic.js';

/**
 * Index writes of one import's batches that run at once. With one, a batch's documents were read
 * and built only once the batch before was in OpenSearch: the reading and building (in this
 * process) and OpenSearch's indexing (on the other core) took turns, and the writes, not the
 * transactions, held the job. With two, one batch's documents are built while the other's are
 * indexed. Versions keep the index right in any order.
 */
const INDEX_WRITES_IN_FLIGHT = 2;

/** An upload still `receiving` after this was cut off by its API process dying: no request lasts this long. */
const ABANDONED_UPLOAD_MS = 10 * 60_000;

interface LineOutcome {
  status: LineStatus;
  sourceId: string | null;
  listingId: number | null;
  version: number | null;
  error: LineError | null;
}

export interface ImportRunnerDeps {
  db: Db;
  listings: Pick<ListingsService, 'create' | 'createMany' | 'update' | 'remove' | 'unchangedByPut'>;
  writes: Pick<ListingWrites, 'publish'>;
  logger: Logger;
  /**
   * Writes the index documents of a batch's events at once (listing-sync.ts, syncListings): one
   * read and one `_bulk` for the batch, where a queue job a listing cost more than the writes.
   */
  index: (events: SyncListingJob[]) => Promise<unknown[]>;
  /** Lines a batch applies at most (IMPORT_BATCH_SIZE), and the bytes of content it reads at most (IMPORT_BATCH_BYTES). */
  batchSize: number;
  batchBytes: number;
}

/** A stored line of a batch: read as JSON, its fingerprint, and once needed, checked. */
interface BatchLine {
  line: number;
  read: ReadLine;
  /** Of a line read with a source_id; null otherwise (it cannot match a mapping). */
  fingerprint: string | null;
  parsed?: ParsedLine;
}

function batchLine(line: number, content: string | null, country: string): BatchLine {
  const read = readImportLine(content, MAX_LINE_BYTES);
  return { line, read, fingerprint: read.ok && read.sourceId !== null ? lineFingerprint(country, content!) : null };
}

/** The line checked as a listing's body, once. */
const parsedOf = (l: BatchLine): ParsedLine => (l.parsed ??= checkImportLine(l.read));

/**
 * Whether the line is unchanged by its fingerprint alone: its mapping's listing still holds the
 * version the same line left, and a PUT of it by the caller would be allowed (unchangedByPut's checks).
 */
function fingerprintHolds(l: BatchLine, mapped: MappedForImport | undefined, country: string, caller: Caller): boolean {
  return (
    mapped !== undefined &&
    l.fingerprint !== null &&
    mapped.importFingerprint === l.fingerprint &&
    mapped.importVersion === mapped.version &&
    mapped.live &&
    mapped.country === country &&
    !isClaimedByOther(mapped.claimedBy, caller)
  );
}

export function createImportRunner({ db, listings, writes, index, logger, batchSize, batchBytes }: ImportRunnerDeps) {
  /** Set on shutdown: runs stop after their current batch, and the next indexer resumes them. */
  let stopping = false;
  /** Per running import, the index writes of its committed batches still running, oldest first. */
  const indexing = new Map<number, Promise<void>[]>();

  /**
   * Indexes the events of import `id`'s committed batch beside its next batches, with at most
   * INDEX_WRITES_IN_FLIGHT of its batches' writes running. Events it could not index (OpenSearch
   * down, a refused document) go through the queue as a single write's do, and failing that the
   * outbox's relay re-enqueues them: none is lost.
   */
  async function indexAfterCommit(id: number, events: SyncListingJob[]): Promise<void> {
    const running = indexing.get(id) ?? [];
    indexing.set(id, running);
    while (running.length >= INDEX_WRITES_IN_FLIGHT) await running.shift();
    const writing = (async () => {
      try {
        const outcomes = await index(events);
        const failed = events.filter((_, i) => outcomes[i] instanceof Error);
        if (failed.length) await writes.publish(failed);
      } catch (err) {
        logger.warn({ err, events: events.length }, 'indexing an import batch failed; its events go through the queue');
        await writes.publish(events).catch(() => {});
      }
    })();
    running.push(writing);
  }

  /** Resolves once the index writes of import `id`'s batches so far are done. */
  async function indexed(id: number): Promise<void> {
    const running = indexing.get(id) ?? [];
    while (running.length) await running.shift();
    indexing.delete(id);
  }

  /**
   * Applies one parsed line inside the batch's transaction. `mapped` is the listing its source_id
   * maps to; `unchanged` the stored listing when a read before the batch found the line equal to
   * it (no write at all). A refused item is an outcome; anything else aborts the batch.
   */
  async function applyLine(
    tx: DbOrTx,
    events: SyncListingJob[],
    caller: Caller,
    country: string,
    parsed: ParsedLine,
    mapped: number | undefined,
    unchanged: Listing | undefined,
    createWithoutSavepoint: boolean,
  ): Promise<LineOutcome> {
    if (!parsed.ok) return { status: 'failed', sourceId: parsed.sourceId, listingId: null, version: null, error: parsed.error };
    const { sourceId, input } = parsed;
    if (mapped !== undefined && unchanged) return { status: 'unchanged', sourceId, listingId: mapped, version: unchanged.version, error: null };
    const options: WriteOptions = { channel: 'import', within: { tx, events, createWithoutSavepoint } };
    try {
      if (mapped === undefined) {
        const listing = await listings.create(caller, country, input, options);
        return { status: 'created', sourceId, listingId: Number(listing.id), version: listing.version, error: null };
      }
      // A mapped source_id replaces its listing as PUT does, with PUT's ownership rule and no-op detection.
      const { listing, changed } = await listings.update(caller, country, mapped, input, options);
      return { status: changed ? 'updated' : 'unchanged', sourceId, listingId: Number(listing.id), version: listing.version, error: null };
    } catch (err) {
      // In a savepoint the line's failure leaves the batch usable: the line fails alone. Without one
      // the transaction is aborted, and the batch runs again with savepoints (applyNextLines).
      const refused = createWithoutSavepoint ? undefined : refusedDataState(err);
      if (refused) {
        return { status: 'failed', sourceId, listingId: null, version: null, error: { type: 'validation', message: 'the database refused the listing', details: [`sqlstate: ${refused}`] } };
      }
      if (!(err instanceof AppError)) throw err;
      const { type, message, details } = err.toBody();
      return { status: 'failed', sourceId, listingId: null, version: null, error: { type, message, details: Array.isArray(details) ? details : [] } };
    }
  }

  /**
   * Creates, in one statement, the listing of each line that names a source_id the partner has not
   * mapped, the first line of the batch that names it: the lines the loop of applyLines would
   * create one by one. Returns each created line's listing; a line the statement did not create
   * (invalid, an unknown category) goes through the loop, which finds out why.
   */
  async function createNewListings(
    tx: DbOrTx,
    events: SyncListingJob[],
    caller: Caller,
    country: string,
    valid: Extract<ParsedLine, { ok: true }>[],
    mapped: ReadonlyMap<string, number>,
  ): Promise<Map<ParsedLine, CreatedVersion>> {
    const named = new Set<string>();
    const fresh = valid.filter(({ sourceId }) => !mapped.has(sourceId) && !named.has(sourceId) && named.add(sourceId));
    const created = await listings.createMany(
      caller,
      country,
      fresh.map((p) => p.input),
      { tx, events },
      'import',
    );
    return new Map(fresh.flatMap((parsed, i) => (created[i] ? [[parsed, created[i]] as const] : [])));
  }

  /**
   * Runs `work` on the locked job while it is still running, in one transaction, then starts
   * the index writes of the writes it made (indexAfterCommit). Returns undefined once the job is no longer running.
   */
  async function inBatch<T>(id: number, work: (tx: DbOrTx, job: ImportRow, events: SyncListingJob[]) => Promise<T>): Promise<T | undefined> {
    const events: SyncListingJob[] = [];
    const result = await db.transaction(async (tx) => {
      const job = await lockImport(tx, id);
      return job?.status === 'running' ? work(tx, job, events) : undefined;
    });
    if (events.length) await indexAfterCommit(id, events);
    return result;
  }

  /**
   * The next batch of lines after `afterLine`: returns its last line, null once every line has its
   * outcome, undefined once the job is no longer running. The
   * batch's mappings and its unchanged lines are found with one query each, so a resubmitted file
   * costs a read per batch, not a write per line: a line whose fingerprint its mapping holds for
   * the listing's current version is unchanged unread (src/imports/import-fingerprint.ts); the
   * other mapped lines are checked and compared with their listings, read at once. A line whose
   * source_id an earlier line of the batch created or updated goes through the write, which
   * compares under the lock.
   *
   * The batch's new listings are created first, in one statement without a savepoint
   * (createNewListings). A create that fails in the database then aborts the batch's transaction;
   * the batch is rolled back and run again with a savepoint for every write, one line at a time,
   * where that line fails alone.
   */
  async function applyNextLines(id: number, caller: Caller, afterLine: number): Promise<number | null | undefined> {
    try {
      return await applyLines(id, caller, afterLine, true);
    } catch (err) {
      logger.debug({ err, importId: id }, 'import batch rolled back; running it again with savepoints');
      return applyLines(id, caller, afterLine, false);
    }
  }

  /** Applies the lines after `afterLine`; returns the batch's last line, null when none was left. */
  const applyLines = (id: number, caller: Caller, afterLine: number, createWithoutSavepoint: boolean) =>
    inBatch(id, async (tx, job, events) => {
      const lines = (await pendingLines(tx, id, afterLine, batchSize, batchBytes)).map(({ line, content }) => batchLine(line, content, job.country));
      const found = await findMappingsForImport(
        tx,
        caller.partnerId,
        lines.flatMap(({ read }) => (read.ok && read.sourceId !== null ? [read.sourceId] : [])),
      );
      const mapped = new Map([...found].map(([sourceId, { listingId }]) => [sourceId, listingId]));
      const unread = new Set(lines.filter((l) => fingerprintHolds(l, found.get(l.read.sourceId!), job.country, caller)));
      const valid = lines.flatMap((l) => (unread.has(l) ? [] : [parsedOf(l)])).flatMap((parsed) => (parsed.ok ? [parsed] : []));
      const candidates = valid.flatMap((p) => {
        const listingId = mapped.get(p.sourceId);
        return listingId === undefined ? [] : [{ id: listingId, input: p.input, parsed: p }];
      });
      const stored = await listings.unchangedByPut(tx, caller, job.country, candidates);
      const unchanged = new Map(candidates.map((c, i) => [c.parsed, stored[i]]));
      const created = createWithoutSavepoint ? await createNewListings(tx, events, caller, job.country, valid, mapped) : new Map<ParsedLine, CreatedVersion>();
      const written = new Set<string>();
      const left = new Map<string, { fingerprint: string; version: number }>();
      const outcomes: LineOutcomeRow[] = [];
      const delta: CountsDelta = {};
      /** The line's outcome: unchanged by its fingerprint, created by the batch's insert, or applied alone. */
      const outcomeOf = async (l: BatchLine): Promise<LineOutcome> => {
        const sourceId = l.read.sourceId!;
        if (unread.has(l) && !written.has(sourceId)) {
          const { listingId, version } = found.get(sourceId)!;
          return { status: 'unchanged', sourceId, listingId, version, error: null };
        }
        const parsed = parsedOf(l);
        const createdFirst = created.get(parsed);
        if (createdFirst) return { status: 'created', sourceId, listingId: createdFirst.id, version: createdFirst.version, error: null };
        const fresh = parsed.ok && !written.has(parsed.sourceId);
        return applyLine(tx, events, caller, job.country, parsed, parsed.ok ? mapped.get(parsed.sourceId) : undefined, fresh ? unchanged.get(parsed) : undefined, createWithoutSavepoint);
      };
      for (const l of lines) {
        const outcome = await outcomeOf(l);
        if (outcome.status === 'created' || outcome.status === 'updated') {
          written.add(outcome.sourceId!);
          mapped.set(outcome.sourceId!, outcome.listingId!);
        }
        if (outcome.status !== 'failed' && l.fingerprint !== null) left.set(outcome.sourceId!, { fingerprint: l.fingerprint, version: outcome.version! });
        outcomes.push({ line: l.line, ...outcome });
        delta[outcome.status] = (delta[outcome.status] ?? 0) + 1;
      }
      await recordLineOutcomes(tx, id, outcomes);
      await recordImportFingerprints(
        tx,
        caller.partnerId,
        [...left].flatMap(([sourceId, { fingerprint, version }]) => {
          const held = found.get(sourceId);
          return held?.importFingerprint === fingerprint && held.importVersion === version ? [] : [{ sourceId, fingerprint, version }];
        }),
      );
      await addCounts(tx, id, { ...delta, processed: lines.length });
      return lines.at(-1)?.line ?? null;
    });

  /** mode=replace: deletes the next batch of the caller's listings that no line named; false when none is left. */
  const deleteNextUnnamed = (id: number, caller: Caller) =>
    inBatch(id, async (tx, job, events) => {
      const ids = await listingsNotNamedBy(tx, id, caller.partnerId, job.country, batchSize);
      for (const listingId of ids) await listings.remove(caller, job.country, listingId, { channel: 'import', within: { tx, events } });
      await addCounts(tx, id, { deleted: ids.length });
      return ids.length > 0;
    });

  const finish = (id: number) =>
    inBatch(id, async (tx, job) => {
      const skipped = job.mode === 'replace' && job.failed > 0 ? `mode=replace deleted nothing: ${job.failed} line${job.failed === 1 ? '' : 's'} failed` : null;
      await markFinished(tx, id, 'done', skipped);
    });

  async function runImport(job: ImportRow): Promise<void> {
    const log = logger.child({ importId: job.id, partnerId: job.partnerId });
    const partner = await findPartnerById(db, job.partnerId);
    if (!partner) {
      await markFinished(db, job.id, 'failed', 'the partner of this import no longer exists');
      return;
    }
    const caller: Caller = { partnerId: partner.partnerId, name: partner.name, role: partner.role };
    await markRunning(db, job.id);
    // A job of one batch reads its lines once; a longer one needs the planner to know its rows.
    if (job.lines > batchSize) await analyzeImportLines(db);
    log.info({ lines: job.lines, processed: job.processed }, job.status === 'running' ? 'import resumed' : 'import started');
    try {
      await applyImport(job.id, caller, log);
    } finally {
      await indexed(job.id);
    }
  }

  /** Applies the running import `id`'s lines, then mode=replace's deletes, then finishes it. */
  async function applyImport(id: number, caller: Caller, log: Logger): Promise<void> {
    // Lines up to `afterLine` have their outcome: each batch resumes the scan after the last one's.
    for (let afterLine = 0; !stopping; ) {
      const last = await applyNextLines(id, caller, afterLine);
      if (!last) break;
      afterLine = last;
    }
    if (stopping) return;
    const current = await inBatch(id, async (_tx, row) => row);
    if (!current) return log.info('import stopped: cancelled');
    if (current.mode === 'replace' && current.failed === 0) while (!stopping && (await deleteNextUnnamed(id, caller)));
    if (stopping) return;
    // Done once its listings are in the index: a search then finds what the job wrote.
    await indexed(id);
    await finish(id);
    log.info('import done');
  }

  return {
    /** Runs the partner's unfinished imports, oldest first, until none is left. */
    async runPartner(partnerId: number): Promise<void> {
      for (let job = await oldestUnfinishedImport(db, partnerId); job && !stopping; job = await oldestUnfinishedImport(db, partnerId)) {
        await runImport(job);
      }
    },

    stop(): void {
      stopping = true;
    },
  };
}

export type ImportRunner = ReturnType<typeof createImportRunner>;

export function startImportWorker(opts: { db: Db; runner: ImportRunner; redisUrl: string; prefix: string; concurrency: number; sweepIntervalMs: number; logger: Logger }) {
  const connection = new Redis(opts.redisUrl, { maxRetriesPerRequest: null });
  connection.on('error', () => {});
  const worker = new Worker(IMPORT_QUEUE, async (job) => opts.runner.runPartner(parseRunImportsJob(job.data).partnerId), {
    connection,
    prefix: opts.prefix,
    concurrency: opts.concurrency,
    // A run of a killed indexer is taken over within seconds, not BullMQ's default 30 s.
    lockDuration: 10_000,
    stalledInterval: 5_000,
  });
  worker.on('failed', (job, err) => opts.logger.warn({ jobId: job?.id, attempt: job?.attemptsMade, err }, 'import run failed; will retry'));
  worker.on('error', (err) => opts.logger.warn({ err }, 'import worker connection error'));
  // Jobs live in PostgreSQL: a run whose queue job was lost (Redis emptied, enqueue failed) is
  // enqueued again, and uploads cut off by a dead API process are removed.
  const queue = createImportQueue(opts.redisUrl, opts.prefix);
  const sweep = runEvery(
    opts.sweepIntervalMs,
    async () => {
      await deleteAbandonedUploads(opts.db, ABANDONED_UPLOAD_MS);
      await queue.enqueue(await partnersWithUnfinishedImports(opts.db));
    },
    (err) => opts.logger.warn({ err }, 'import sweep failed; retrying on the next tick'),
  );
  return {
    async close() {
      opts.runner.stop();
      await sweep.stop();
      await worker.close();
      await queue.close();
      connection.disconnect();
    },
  };
}

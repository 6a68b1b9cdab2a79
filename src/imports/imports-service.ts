// Bulk imports, the API's side (docs/contract.md §19): a body is streamed into PostgreSQL in
// batches of lines, checked against the limits as it arrives, and becomes a job only once it is
// all stored; the indexer's runner applies it (indexer/import-runner.ts). Reads, results and
// cancel serve the job's owner, and admins.
import { createHash } from 'node:crypto';
import { pipeline, Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import type pg from 'pg';
import type { Db } from '../db/client.js';
import { isUniqueViolation } from '../db/pg-errors.js';
import { IDEMPOTENCY_TTL_MS } from '../db/schema.js';
import type { Caller } from '../partners/partners-service.js';
import { AppError, conflict, notFound, validationError } from '../platform/errors.js';
import type { ImportJob } from '../schemas/imports.js';
import type { ImportQueue } from './import-queue.js';
import { toImportJob, toImportResult } from './import-view.js';
import {
  cancelImport,
  completeReceiving,
  deleteImport,
  findImport,
  copyLines,
  insertReceivingImport,
  listImports,
  lockImportByKey,
  readResults,
  releaseKey,
  type ImportMode,
  type ImportRow,
} from './imports-dal.js';
import { ndjsonLines } from './ndjson-lines.js';

/** A line longer than this fails as an item, unread (docs/contract.md §19). */
export const MAX_LINE_BYTES = 1024 * 1024;
/** Lines stored per COPY while the body arrives, and the bytes that flush a batch early. */
const STORE_BATCH_LINES = 2000;
const STORE_BATCH_BYTES = 512 * 1024;
const MAX_LISTED = 100;
const RESULTS_PAGE = 1000;

export interface ImportLimits {
  maxItems: number;
  maxBytes: number;
}

export interface ImportUpload {
  body: Readable;
  contentEncoding: string | undefined;
  idempotencyKey: string | undefined;
}

/** What a POST answers: the job, and whether it is an earlier one that the same Idempotency-Key named. */
export interface SubmittedImport {
  job: ImportJob;
  replayed: boolean;
}

const tooLarge = (what: string) => new AppError('payload_too_large', `the import exceeds ${what}; nothing was stored`);

/** zlib's own errors (Z_DATA_ERROR, Z_BUF_ERROR for a truncated stream): the body is not gzip. */
const isGzipError = (err: unknown) => typeof (err as { code?: unknown })?.code === 'string' && (err as { code: string }).code.startsWith('Z_');

export function createImportsService({ db, pool, queue, limits }: { db: Db; pool: pg.Pool; queue: Pick<ImportQueue, 'enqueue'>; limits: ImportLimits }) {
  /** The job if the caller may see it: its owner's, or any for an admin; 404 otherwise. */
  async function visibleImport(caller: Caller, country: string, id: number): Promise<ImportRow> {
    const row = await findImport(db, id);
    if (!row || row.country !== country || (caller.role !== 'admin' && row.partnerId !== caller.partnerId)) throw notFound(`import ${id}`);
    return row;
  }

  /**
   * Streams the body into the job's lines, counting lines and uncompressed bytes as they arrive.
   * Returns the number of lines and the body's hash, or the gzip error that makes the job fail.
   */
  async function storeBody(id: number, upload: ImportUpload, hash: ReturnType<typeof createHash>): Promise<{ lines: number; gzipError?: string }> {
    const source: Readable = upload.contentEncoding === 'gzip' ? pipeline(upload.body, createGunzip(), () => {}) : upload.body;
    let bytes = 0;
    async function* counted() {
      for await (const chunk of source as AsyncIterable<Buffer>) {
        bytes += chunk.length;
        if (bytes > limits.maxBytes) throw tooLarge(`${limits.maxBytes} bytes (uncompressed)`);
        hash.update(chunk);
        yield chunk;
      }
    }
    let lines = 0;
    let batch: { line: number; content: string | null }[] = [];
    let batchBytes = 0;
    // One COPY in flight while the next batch is read: the body and PostgreSQL work side by side,
    // and at most two batches are held in memory. The COPY is marked handled at once, so that a
    // failure while the body is read is not an unhandled rejection; the next await of it throws.
    let storing: Promise<void> = Promise.resolve();
    const store = async (full: typeof batch) => {
      await storing;
      storing = copyLines(pool, id, full);
      storing.catch(() => {});
    };
    try {
      for await (const line of ndjsonLines(counted(), MAX_LINE_BYTES)) {
        if (++lines > limits.maxItems) throw tooLarge(`${limits.maxItems} lines`);
        batch.push({ line: line.line, content: line.text });
        batchBytes += line.text === null ? 0 : line.bytes;
        if (batch.length >= STORE_BATCH_LINES || batchBytes >= STORE_BATCH_BYTES) {
          await store(batch);
          batch = [];
          batchBytes = 0;
        }
      }
      await store(batch);
      await storing;
    } catch (err) {
      // A COPY still in flight finishes (or fails) before the caller deletes the upload.
      await storing.catch(() => {});
      if (!isGzipError(err)) throw err;
      return { lines, gzipError: `the body is not valid gzip (${(err as Error).message}); no line was applied` };
    }
    return { lines };
  }

  /**
   * Makes the stored upload a job, or, when the caller's Idempotency-Key already names one, answers
   * that job (same body) or 409 (another body). Returns the job and whether it is the earlier one.
   */
  async function complete(caller: Caller, id: number, stored: { lines: number; gzipError?: string }, key: string | undefined, requestHash: string) {
    const completion = { lines: stored.lines, idempotencyKey: key, requestHash, ...(stored.gzipError ? { error: stored.gzipError } : {}) };
    if (key === undefined) return { row: await completeReceiving(db, id, completion), earlier: false };
    for (let attempt = 1; ; attempt++) {
      try {
        return await db.transaction(async (tx) => {
          const holder = await lockImportByKey(tx, caller.partnerId, key);
          // Keys are remembered as long as section 13 says; an older one starts a new job.
          if (holder && Date.now() - holder.createdAt.getTime() > IDEMPOTENCY_TTL_MS) await releaseKey(tx, holder.id);
          else if (holder && holder.requestHash === requestHash) return { row: holder, earlier: true };
          else if (holder) throw conflict('Idempotency-Key was already used with another request', ['Idempotency-Key: reused with a different body']);
          return { row: await completeReceiving(tx, id, completion), earlier: false };
        });
      } catch (err) {
        // A concurrent request with the same key completed first: look again, and find its job.
        if (!isUniqueViolation(err) || attempt > 1) throw err;
      }
    }
  }

  return {
    async submit(caller: Caller, country: string, mode: ImportMode, upload: ImportUpload): Promise<SubmittedImport> {
      const key = upload.idempotencyKey;
      if (key !== undefined && (key.length < 1 || key.length > 200)) throw validationError(['Idempotency-Key: must be 1–200 characters']);
      if (upload.contentEncoding !== undefined && upload.contentEncoding !== 'gzip' && upload.contentEncoding !== 'identity') {
        throw new AppError('unsupported_media_type', `Content-Encoding ${upload.contentEncoding} is not supported; send gzip or no encoding`);
      }
      // Invisible while `receiving`; removed here when refused, and by the indexer's sweep when this process dies first.
      const id = await insertReceivingImport(db, { partnerId: caller.partnerId, country, mode });
      const hash = createHash('sha256').update(`${country} ${mode}\n`);
      let outcome: { row: ImportRow; earlier: boolean };
      try {
        const stored = await storeBody(id, upload, hash);
        outcome = await complete(caller, id, stored, key, hash.digest('hex'));
      } catch (err) {
        await deleteImport(db, id);
        throw err;
      }
      if (outcome.earlier) {
        await deleteImport(db, id);
        return { job: toImportJob(outcome.row), replayed: true };
      }
      // Best effort: the job is durable, and the indexer's sweep enqueues one whose enqueue failed.
      if (outcome.row.status === 'queued') await queue.enqueue([caller.partnerId]).catch(() => {});
      return { job: toImportJob(outcome.row), replayed: false };
    },

    async get(caller: Caller, country: string, id: number): Promise<ImportJob> {
      return toImportJob(await visibleImport(caller, country, id));
    },

    async list(caller: Caller, country: string): Promise<ImportJob[]> {
      const rows = await listImports(db, country, caller.role === 'admin' ? null : caller.partnerId, MAX_LISTED);
      return rows.map(toImportJob);
    },

    /** The outcomes of the processed lines as NDJSON, in line order, read a page at a time. */
    async results(caller: Caller, country: string, id: number): Promise<Readable> {
      await visibleImport(caller, country, id);
      async function* pages() {
        for (let after = 0; ; ) {
          const rows = await readResults(db, id, after, RESULTS_PAGE);
          if (rows.length === 0) return;
          yield rows.map((row) => `${JSON.stringify(toImportResult(row))}\n`).join('');
          after = rows.at(-1)!.line;
        }
      }
      return Readable.from(pages());
    },

    /** Cancels a queued or running job; lines already applied stay applied. An ended job is a 409. */
    async cancel(caller: Caller, country: string, id: number): Promise<void> {
      const row = await visibleImport(caller, country, id);
      if (!(await cancelImport(db, row.id))) throw conflict(`import ${id} has already ended (${row.status})`);
    },
  };
}

export type ImportsService = ReturnType<typeof createImportsService>;

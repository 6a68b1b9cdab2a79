// Every SQL statement on the bulk-import tables (docs/contract.md §19): jobs, their stored lines
// and the lines' outcomes.
import { and, asc, desc, eq, getTableName, gt, inArray, isNull, lt, sql } from 'drizzle-orm';
import type pg from 'pg';
import type { DbOrTx } from '../db/client.js';
import { copyIn } from '../db/copy-in.js';
import { importLines, imports, listings, mappings } from '../db/schema.js';

export type ImportRow = typeof imports.$inferSelect;
export type ImportMode = ImportRow['mode'];
export type LineStatus = NonNullable<(typeof importLines.$inferSelect)['status']>;
export type LineError = { type: string; message: string; details: string[] };

/** What a job's counters add after a batch of lines. */
export type CountsDelta = Partial<Record<'processed' | 'created' | 'updated' | 'unchanged' | 'deleted' | 'failed', number>>;

export const UNFINISHED = ['queued', 'running'] as const;

export async function insertReceivingImport(db: DbOrTx, job: { partnerId: number; country: string; mode: ImportMode }): Promise<number> {
  const [row] = await db.insert(imports).values(job).returning({ id: imports.id });
  return row!.id;
}

/** A line's content as a field of COPY's text format: backslash, tab, newline and return escaped; `\N` for none. */
export function copyField(content: string | null): string {
  if (content === null) return '\\N';
  return content.replace(/[\\\t\n\r]/g, (c) => (c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r'));
}

/**
 * Stores uploaded lines with one COPY: about three times faster than an insert with array
 * parameters, whose elements (JSON lines, full of quotes) the driver escapes and PostgreSQL parses
 * again. One statement per call, so a batch is bounded by the statement timeout as any insert is.
 */
export async function copyLines(pool: pg.Pool, importId: number, lines: { line: number; content: string | null }[]): Promise<void> {
  if (lines.length === 0) return;
  // Rows made as the COPY takes them: no second copy of the batch is built in memory.
  const rows = function* () {
    for (const l of lines) yield `${importId}\t${l.line}\t${copyField(l.content)}\n`;
  };
  const table = getTableName(importLines);
  const columns = [importLines.importId, importLines.line, importLines.content].map((c) => c.name).join(', ');
  const client = await pool.connect();
  try {
    await copyIn(client, `copy ${table} (${columns}) from stdin`, rows());
  } catch (err) {
    // A COPY that failed half-way leaves its connection in no known state: not given back.
    client.release(err as Error);
    throw err;
  }
  client.release();
}

/** Removes a job and its lines (a refused or superseded upload). */
export async function deleteImport(db: DbOrTx, id: number): Promise<void> {
  await db.delete(imports).where(eq(imports.id, id));
}

/** The job that holds the partner's Idempotency-Key, locked, if any. */
export async function lockImportByKey(tx: DbOrTx, partnerId: number, key: string): Promise<ImportRow | undefined> {
  const [row] = await tx
    .select()
    .from(imports)
    .where(and(eq(imports.partnerId, partnerId), eq(imports.idempotencyKey, key)))
    .for('update');
  return row;
}

/** A key older than the time keys are remembered is released for a new job. */
export async function releaseKey(tx: DbOrTx, id: number): Promise<void> {
  await tx.update(imports).set({ idempotencyKey: null, requestHash: null }).where(eq(imports.id, id));
}

/** The stored upload becomes a job the runner may take (or, with `error`, one that failed as a whole). */
export async function completeReceiving(db: DbOrTx, id: number, done: { lines: number; idempotencyKey?: string | undefined; requestHash?: string | undefined; error?: string }): Promise<ImportRow> {
  const [row] = await db
    .update(imports)
    .set({
      lines: done.lines,
      idempotencyKey: done.idempotencyKey ?? null,
      requestHash: done.idempotencyKey ? (done.requestHash ?? null) : null,
      ...(done.error === undefined ? { status: 'queued' as const } : { status: 'failed' as const, error: done.error, finishedAt: sql`now()` }),
    })
    .where(eq(imports.id, id))
    .returning();
  return row!;
}

/** A job that is past receiving, if it exists. */
export async function findImport(db: DbOrTx, id: number): Promise<ImportRow | undefined> {
  const [row] = await db
    .select()
    .from(imports)
    .where(and(eq(imports.id, id), sql`${imports.status} <> 'receiving'`));
  return row;
}

/** A country's jobs, of one partner (all partners when null), newest first. */
export function listImports(db: DbOrTx, country: string, partnerId: number | null, limit: number): Promise<ImportRow[]> {
  return db
    .select()
    .from(imports)
    .where(and(eq(imports.country, country), sql`${imports.status} <> 'receiving'`, partnerId === null ? undefined : eq(imports.partnerId, partnerId)))
    .orderBy(desc(imports.id))
    .limit(limit);
}

/**
 * Cancels a queued or running job; false when it had already ended. A running job's row is locked
 * by the batch being applied (the runner's lockImport): the cancel waits for that batch to commit,
 * however long past DB_LOCK_TIMEOUT_MS it takes (statement timeout aside), so the lines applied
 * are exactly those committed before the cancel and a DELETE does not fail because a batch is slow.
 */
export async function cancelImport(db: DbOrTx, id: number): Promise<boolean> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`set local lock_timeout = 0`);
    const rows = await tx
      .update(imports)
      .set({ status: 'cancelled', finishedAt: sql`now()` })
      .where(and(eq(imports.id, id), inArray(imports.status, [...UNFINISHED])))
      .returning({ id: imports.id });
    return rows.length > 0;
  });
}

/** Outcomes of the processed lines after `afterLine`, in line order. */
export function readResults(db: DbOrTx, importId: number, afterLine: number, limit: number) {
  return db
    .select({
      line: importLines.line,
      status: importLines.status,
      sourceId: importLines.sourceId,
      listingId: importLines.listingId,
      version: importLines.version,
      error: importLines.error,
    })
    .from(importLines)
    .where(and(eq(importLines.importId, importId), gt(importLines.line, afterLine), sql`${importLines.status} is not null`))
    .orderBy(asc(importLines.line))
    .limit(limit);
}

// --- The runner -----------------------------------------------------------------------------------

/** The job under a row lock: batches of one job never run side by side, and a cancel waits for the batch. */
export async function lockImport(tx: DbOrTx, id: number): Promise<ImportRow | undefined> {
  const [row] = await tx.select().from(imports).where(eq(imports.id, id)).for('update');
  return row;
}

/** The oldest unfinished job of a partner: the one its jobs wait behind. */
export async function oldestUnfinishedImport(db: DbOrTx, partnerId: number): Promise<ImportRow | undefined> {
  const [row] = await db
    .select()
    .from(imports)
    .where(and(eq(imports.partnerId, partnerId), inArray(imports.status, [...UNFINISHED])))
    .orderBy(asc(imports.id))
    .limit(1);
  return row;
}

/** Partners with a queued or running job. */
export async function partnersWithUnfinishedImports(db: DbOrTx): Promise<number[]> {
  const rows = await db
    .selectDistinct({ partnerId: imports.partnerId })
    .from(imports)
    .where(inArray(imports.status, [...UNFINISHED]));
  return rows.map((r) => r.partnerId);
}

/** Removes uploads still receiving after `olderThanMs`: their API process died mid-body. */
export async function deleteAbandonedUploads(db: DbOrTx, olderThanMs: number): Promise<number> {
  const rows = await db
    .delete(imports)
    .where(and(eq(imports.status, 'receiving'), lt(imports.createdAt, sql`now() - make_interval(secs => ${olderThanMs / 1000})`)))
    .returning({ id: imports.id });
  return rows.length;
}

export async function markRunning(tx: DbOrTx, id: number): Promise<void> {
  await tx
    .update(imports)
    .set({ status: 'running', startedAt: sql`coalesce(${imports.startedAt}, now())` })
    .where(and(eq(imports.id, id), eq(imports.status, 'queued')));
}

export async function markFinished(tx: DbOrTx, id: number, status: 'done' | 'failed', error: string | null): Promise<void> {
  await tx
    .update(imports)
    .set({ status, error, finishedAt: sql`now()`, startedAt: sql`coalesce(${imports.startedAt}, now())` })
    .where(eq(imports.id, id));
}

/**
 * The next lines without an outcome after line `afterLine`, in line order: at most `limit`, and no
 * more than `maxBytes` of content but for the first line, so that a batch of long lines (up to 1 MiB
 * each) stays small in the runner's memory. Batches take lines in order, so every line up to the
 * last batch's has an outcome: `afterLine` starts the scan of the primary key there instead of at
 * the job's first line, which would pass every processed line again on each batch.
 */
export async function pendingLines(tx: DbOrTx, importId: number, afterLine: number, limit: number, maxBytes: number): Promise<{ line: number; content: string | null }[]> {
  const bytes = sql`coalesce(octet_length(${importLines.content}), 0)`;
  const next = tx
    .select({ line: importLines.line, content: importLines.content, before: sql<string>`sum(${bytes}) over (order by ${importLines.line}) - ${bytes}`.as('before') })
    .from(importLines)
    .where(and(eq(importLines.importId, importId), gt(importLines.line, afterLine), isNull(importLines.status)))
    .orderBy(asc(importLines.line))
    .limit(limit)
    .as('next');
  return tx.select({ line: next.line, content: next.content }).from(next).where(sql`${next.before} < ${maxBytes} or ${next.before} = 0`).orderBy(asc(next.line));
}

/**
 * Refreshes the planner's statistics of the stored lines. A job's upload adds up to a million rows
 * at once; until autovacuum analyses them the planner thinks a job has a handful of pending lines
 * and, for each batch, sorts all of them instead of reading the next ones in key order.
 */
export async function analyzeImportLines(db: DbOrTx): Promise<void> {
  await db.execute(sql`analyze ${importLines}`);
}

export interface LineOutcomeRow {
  line: number;
  status: LineStatus;
  sourceId: string | null;
  listingId: number | null;
  version: number | null;
  error: LineError | null;
}

/** Records a batch of lines' outcomes in one statement; the stored content is no longer needed then. */
export async function recordLineOutcomes(tx: DbOrTx, importId: number, outcomes: LineOutcomeRow[]): Promise<void> {
  if (outcomes.length === 0) return;
  const rows = JSON.stringify(outcomes.map((o) => ({ line: o.line, status: o.status, source_id: o.sourceId, listing_id: o.listingId, version: o.version, error: o.error })));
  await tx.execute(sql`update ${importLines} set status = v.status, source_id = v.source_id, listing_id = v.listing_id, version = v.version, error = v.error, content = null
    from jsonb_to_recordset(${rows}::jsonb) as v(line integer, status text, source_id text, listing_id bigint, version bigint, error jsonb)
    where ${importLines.importId} = ${importId} and ${importLines.line} = v.line`);
}

export async function addCounts(tx: DbOrTx, id: number, delta: CountsDelta): Promise<void> {
  const add = (column: keyof CountsDelta) => sql`${imports[column]} + ${delta[column] ?? 0}`;
  await tx
    .update(imports)
    .set({
      processed: add('processed'),
      created: add('created'),
      updated: add('updated'),
      unchanged: add('unchanged'),
      deleted: add('deleted'),
      failed: add('failed'),
    })
    .where(eq(imports.id, id));
}

/**
 * Listings claimed by the partner in the country whose mapping's source_id no line of the job
 * applied (mode=replace): what a full-catalogue sync removes.
 */
export async function listingsNotNamedBy(tx: DbOrTx, importId: number, partnerId: number, country: string, limit: number): Promise<number[]> {
  const rows = await tx
    .select({ id: mappings.listingId })
    .from(mappings)
    .innerJoin(listings, eq(listings.id, mappings.listingId))
    .where(
      and(
        eq(mappings.partnerId, partnerId),
        eq(mappings.country, country),
        eq(listings.claimedBy, partnerId),
        isNull(listings.deletedAt),
        sql`not exists (select 1 from ${importLines} where ${importLines.importId} = ${importId}
        and ${importLines.sourceId} = ${mappings.sourceId} and ${importLines.status} <> 'failed')`,
      ),
    )
    .orderBy(asc(mappings.listingId))
    .limit(limit);
  return rows.map((r) => r.id);
}

// A stored import job and a line's outcome as the API shows them (docs/contract.md §19).
import type { ImportJob, ImportResult } from '../schemas/imports.js';
import type { ImportRow, readResults } from './imports-dal.js';

const iso = (at: Date | null) => (at === null ? null : at.toISOString());

export function toImportJob(row: ImportRow): ImportJob {
  return {
    id: String(row.id),
    status: row.status === 'receiving' ? 'queued' : row.status,
    mode: row.mode,
    counts: {
      lines: row.lines,
      processed: row.processed,
      created: row.created,
      updated: row.updated,
      unchanged: row.unchanged,
      deleted: row.deleted,
      failed: row.failed,
    },
    created_at: row.createdAt.toISOString(),
    started_at: iso(row.startedAt),
    finished_at: iso(row.finishedAt),
    ...(row.error === null ? {} : { error: row.error }),
  };
}

type ResultRow = Awaited<ReturnType<typeof readResults>>[number];

export function toImportResult(row: ResultRow): ImportResult {
  return {
    line: row.line,
    source_id: row.sourceId,
    status: row.status!,
    ...(row.listingId === null ? {} : { id: String(row.listingId) }),
    ...(row.version === null ? {} : { version: row.version }),
    ...(row.error === null ? {} : { error: row.error }),
  };
}

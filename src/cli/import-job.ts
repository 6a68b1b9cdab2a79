// The pure half of `npm run cli -- import` (src/cli/import.ts): the URLs it calls, what it sends,
// which results it keeps and how it exits. The HTTP contract is docs/contract.md §19.

export type ImportMode = 'upsert' | 'replace';
export const IMPORT_MODES: readonly ImportMode[] = ['upsert', 'replace'];

export interface ImportCounts {
  lines: number;
  processed: number;
  created: number;
  updated: number;
  unchanged: number;
  deleted: number;
  failed: number;
}

export interface ImportJob {
  id: string;
  status: 'queued' | 'running' | 'done' | 'cancelled' | 'failed';
  mode: ImportMode;
  counts: ImportCounts;
  created_at: string;
  started_at?: string | null;
  finished_at?: string | null;
  error?: string | { type: string; message: string };
}

/** The mode option, or an error naming the modes there are. */
export function importMode(value: string): ImportMode {
  if ((IMPORT_MODES as readonly string[]).includes(value)) return value as ImportMode;
  throw new Error(`mode "${value}" is not one of ${IMPORT_MODES.join(', ')}`);
}

/** `POST /:country/imports?mode=…` on the API at `api` (any path of `api` is kept as its prefix). */
export function submitUrl(api: string, country: string, mode: ImportMode): string {
  const url = new URL(`${api.replace(/\/+$/, '')}/${encodeURIComponent(country)}/imports`);
  url.searchParams.set('mode', mode);
  return url.toString();
}

/** The job's status URL: the 202's Location (relative to the API's origin), else built from its id. */
export function jobUrl(api: string, country: string, job: Pick<ImportJob, 'id'>, location?: string | null): string {
  if (location) return new URL(location, `${api.replace(/\/+$/, '')}/`).toString();
  return `${api.replace(/\/+$/, '')}/${encodeURIComponent(country)}/imports/${encodeURIComponent(job.id)}`;
}

/** Where the failed lines' results go: beside the imported file. */
export const failedResultsPath = (file: string) => `${file}.failed.ndjson`;

/** Whether the file is sent as it is (already gzip) or gzipped on the way. */
export const isGzipFile = (file: string) => /\.gz$/i.test(file);

/** A job in one of these states changes no more. */
export const isFinished = (job: Pick<ImportJob, 'status'>) => job.status === 'done' || job.status === 'cancelled' || job.status === 'failed';

/** 0 when the job ran to its end; items that failed are counted, not fatal (docs/contract.md §19). */
export const exitCodeOf = (job: Pick<ImportJob, 'status'>) => (job.status === 'done' ? 0 : 1);

/** Whether one NDJSON line of GET …/results is a failed item's result; blank or unreadable lines are not. */
export function isFailedResult(line: string): boolean {
  if (!line.trim()) return false;
  try {
    return (JSON.parse(line) as { status?: unknown }).status === 'failed';
  } catch {
    return false;
  }
}

/** The counts as one line for a person: every count, in the contract's order. */
export function countsLine(counts: ImportCounts): string {
  const { lines, processed, created, updated, unchanged, deleted, failed } = counts;
  return `lines ${lines}, processed ${processed}: created ${created}, updated ${updated}, unchanged ${unchanged}, deleted ${deleted}, failed ${failed}`;
}

/** The job's own error (status failed) as a sentence, whether the API gives it as text or as an Error object. */
export function jobErrorText(job: Pick<ImportJob, 'error'>): string | undefined {
  if (!job.error) return undefined;
  return typeof job.error === 'string' ? job.error : `${job.error.type}: ${job.error.message}`;
}

// The bulk import API as a client sees it (docs/contract.md §19): submit a body as a stream, follow
// the job until it ends, read its results line by line. The import command (src/cli/import.ts)
// and bench/import.ts both go through it, so the benchmark measures what partners' tooling does.
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { setTimeout as sleep } from 'node:timers/promises';
import { createGzip } from 'node:zlib';
import { isFinished, isGzipFile, jobUrl, submitUrl, type ImportJob, type ImportMode } from './import-job.js';

/** How often a job's status is read while it runs. */
const POLL_MS = 500;

export interface ImportTarget {
  api: string;
  country: string;
  auth: Record<string, string>;
}

/** An answer other than the one expected, told as the API's `{type, message, details}` says it. */
async function answerError(what: string, res: Response): Promise<Error> {
  const text = await res.text();
  try {
    const body = JSON.parse(text) as { type?: string; message?: string; details?: unknown[] };
    const details = body.details?.length ? `\n  ${body.details.map((d) => (typeof d === 'string' ? d : JSON.stringify(d))).join('\n  ')}` : '';
    return new Error(`${what}: ${res.status} ${body.type ?? ''} ${body.message ?? text}${details}`);
  } catch {
    return new Error(`${what}: ${res.status} ${text.slice(0, 500)}`);
  }
}

/** A file as an import body: as it is when it is gzip already, else gzipped on the way. */
export function fileBody(file: string): { body: Readable; gzip: boolean } {
  const raw = createReadStream(file);
  if (isGzipFile(file)) return { body: raw, gzip: true };
  const gzip = createGzip();
  raw.on('error', (err) => gzip.destroy(err));
  return { body: raw.pipe(gzip), gzip: true };
}

/**
 * POSTs `body` (NDJSON, gzip when `gzip`) as a stream; resolves with the queued job and its URL
 * once the API has stored the body and answered 202.
 */
export async function submitImport(target: ImportTarget, mode: ImportMode, { body, gzip }: { body: Readable; gzip: boolean }) {
  const res = await fetch(submitUrl(target.api, target.country, mode), {
    method: 'POST',
    headers: { ...target.auth, 'content-type': 'application/x-ndjson', ...(gzip ? { 'content-encoding': 'gzip' } : {}) },
    body: Readable.toWeb(body) as ReadableStream<Uint8Array>,
    // A request body that is a stream must say so to fetch (undici).
    duplex: 'half',
  } as RequestInit);
  if (res.status !== 202) throw await answerError('POST imports', res);
  const job = (await res.json()) as ImportJob;
  return { job, url: jobUrl(target.api, target.country, job, res.headers.get('location')) };
}

/** The job at `url` now. */
export async function readImport(url: string, auth: Record<string, string>): Promise<ImportJob> {
  const res = await fetch(url, { headers: auth });
  if (res.status !== 200) throw await answerError('GET import', res);
  return (await res.json()) as ImportJob;
}

/** Reads the job until it ends, calling `onUpdate` with each reading; resolves with the last. */
export async function followImport(url: string, auth: Record<string, string>, first: ImportJob, onUpdate: (job: ImportJob) => void = () => {}): Promise<ImportJob> {
  let job = first;
  while (!isFinished(job)) {
    await sleep(POLL_MS);
    job = await readImport(url, auth);
    onUpdate(job);
  }
  return job;
}

/** Cancels the job at `url` (204); its applied items stay applied. */
export async function cancelImport(url: string, auth: Record<string, string>): Promise<void> {
  const res = await fetch(url, { method: 'DELETE', headers: auth });
  if (res.status !== 204) throw await answerError('DELETE import', res);
}

/** The lines of GET …/results, streamed: one per processed line of the job, in line order. */
export async function* importResults(url: string, auth: Record<string, string>): AsyncGenerator<string> {
  const res = await fetch(`${url}/results`, { headers: auth });
  if (res.status !== 200 || !res.body) throw await answerError('GET import results', res);
  yield* createInterface({ input: Readable.fromWeb(res.body as NodeReadableStream), crlfDelay: Infinity });
}

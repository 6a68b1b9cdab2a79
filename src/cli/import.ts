// `npm run cli -- import <country> <file> --key <key>`: submits a partner's NDJSON file as one bulk
// import through the API (docs/contract.md §19), follows the job with a progress bar, prints its
// counts and writes the failed lines' results beside the file. It talks HTTP only, as a partner's
// own tooling would, so it needs no database or queue of its own.
import { createReadStream, createWriteStream, rmSync } from 'node:fs';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { createGzip } from 'node:zlib';
import { Presets, SingleBar } from 'cli-progress';
import type { Command } from 'commander';
import { config } from './context.js';
import {
  countsLine, exitCodeOf, failedResultsPath, importMode, isFailedResult, isFinished, isGzipFile, jobErrorText, jobUrl, submitUrl,
  type ImportJob, type ImportMode,
} from './import-job.js';

/** How often the job's status is read while it runs. */
const POLL_MS = 500;

interface ImportOptions { key: string; mode: ImportMode; api: string }

/** An answer other than the one expected, told as the API's `{type, message, details}` says it. */
async function answerError(what: string, res: Response): Promise<Error> {
  const text = await res.text();
  try {
    const body = JSON.parse(text) as { type?: string; message?: string; details?: unknown[] };
    const details = body.details?.length ? `\n  ${body.details.map(String).join('\n  ')}` : '';
    return new Error(`${what}: ${res.status} ${body.type ?? ''} ${body.message ?? text}${details}`);
  } catch {
    return new Error(`${what}: ${res.status} ${text.slice(0, 500)}`);
  }
}

/** POSTs the file as a stream, gzipped on the way unless it already is; resolves with the queued job. */
async function submit(cc: string, file: string, opts: ImportOptions, auth: Record<string, string>) {
  const raw = createReadStream(file);
  const body = isGzipFile(file) ? raw : raw.pipe(createGzip());
  raw.on('error', (err) => body.destroy(err));
  const res = await fetch(submitUrl(opts.api, cc, opts.mode), {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/x-ndjson', 'content-encoding': 'gzip' },
    body: Readable.toWeb(body) as ReadableStream<Uint8Array>,
    // A request body that is a stream must say so to fetch (undici).
    duplex: 'half',
  } as RequestInit);
  if (res.status !== 202) throw await answerError('POST imports', res);
  const job = await res.json() as ImportJob;
  return { job, url: jobUrl(opts.api, cc, job, res.headers.get('location')) };
}

/** Reads the job until it ends, showing counts.processed of counts.lines on stderr. */
async function follow(url: string, auth: Record<string, string>, first: ImportJob): Promise<ImportJob> {
  const bar = new SingleBar({ format: 'import  {bar} {value}/{total} lines {percentage}% | {status} | {eta_formatted} left', stream: process.stderr }, Presets.shades_classic);
  bar.start(first.counts.lines, first.counts.processed, { status: first.status });
  let job = first;
  try {
    while (!isFinished(job)) {
      await sleep(POLL_MS);
      const res = await fetch(url, { headers: auth });
      if (res.status !== 200) throw await answerError('GET import', res);
      job = await res.json() as ImportJob;
      bar.setTotal(job.counts.lines);
      bar.update(job.counts.processed, { status: job.status });
    }
  } finally {
    bar.stop();
  }
  return job;
}

/** Streams GET …/results and keeps the failed items' lines in `target`; resolves with their number. */
async function writeFailedResults(url: string, auth: Record<string, string>, target: string): Promise<number> {
  const res = await fetch(`${url}/results`, { headers: auth });
  if (res.status !== 200 || !res.body) throw await answerError('GET import results', res);
  // A file left by an earlier run of the same file would otherwise read as this job's failures.
  rmSync(target, { force: true });
  let out: ReturnType<typeof createWriteStream> | undefined;
  let failed = 0;
  for await (const line of createInterface({ input: Readable.fromWeb(res.body as import('node:stream/web').ReadableStream), crlfDelay: Infinity })) {
    if (!isFailedResult(line)) continue;
    out ??= createWriteStream(target);
    if (!out.write(`${line}\n`)) await once(out, 'drain');
    failed++;
  }
  if (out) {
    out.end();
    await finished(out);
  }
  return failed;
}

export function registerImport(program: Command): void {
  program.command('import <country> <file>')
    .description('bulk-import an NDJSON file (.gz or plain) through the API; exit code 1 unless the job ends done')
    .requiredOption('--key <key>', 'the partner\'s API key')
    .option('--mode <mode>', 'upsert, or replace: also delete the partner\'s listings the file does not name', importMode, 'upsert' as ImportMode)
    .option('--api <url>', 'the API\'s base URL', `http://127.0.0.1:${config.PORT}`)
    .action(async (cc: string, file: string, opts: ImportOptions) => {
      const auth = { authorization: `Bearer ${opts.key}` };
      const { job: queued, url } = await submit(cc.toLowerCase(), file, opts, auth);
      console.error(`job ${queued.id} ${queued.status}: ${url}`);
      const job = await follow(url, auth, queued);
      console.log(`job ${job.id} ${job.status}: ${countsLine(job.counts)}`);
      const error = jobErrorText(job);
      if (error) console.error(`error: ${error}`);
      if (job.counts.failed > 0) {
        const target = failedResultsPath(file);
        const written = await writeFailedResults(url, auth, target);
        console.error(`${written} failed lines' results written to ${target}`);
      }
      process.exitCode = exitCodeOf(job);
    });
}

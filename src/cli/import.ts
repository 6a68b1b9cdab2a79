// `npm run cli -- import <country> <file> --key <key>`: submits a partner's NDJSON file as one bulk
// import through the API (docs/contract.md §19), follows the job with a progress bar, prints its
// counts and writes the failed lines' results beside the file. It talks HTTP only, as a partner's
// own tooling would, so it needs no database or queue of its own.
import { createWriteStream, rmSync } from 'node:fs';
import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import { Presets, SingleBar } from 'cli-progress';
import type { Command } from 'commander';
import { config } from './context.js';
import { fileBody, followImport, importResults, submitImport, type ImportTarget } from './import-client.js';
import { countsLine, exitCodeOf, failedResultsPath, importMode, isFailedResult, jobErrorText, type ImportJob, type ImportMode } from './import-job.js';

/** Follows the job with counts.processed of counts.lines on stderr. */
async function followWithProgress(url: string, auth: Record<string, string>, first: ImportJob): Promise<ImportJob> {
  const bar = new SingleBar({ format: 'import  {bar} {value}/{total} lines {percentage}% | {status} | {eta_formatted} left', stream: process.stderr }, Presets.shades_classic);
  bar.start(first.counts.lines, first.counts.processed, { status: first.status });
  try {
    return await followImport(url, auth, first, (job) => {
      bar.setTotal(job.counts.lines);
      bar.update(job.counts.processed, { status: job.status });
    });
  } finally {
    bar.stop();
  }
}

/** Keeps the failed items' result lines in `target`; resolves with their number. */
async function writeFailedResults(url: string, auth: Record<string, string>, target: string): Promise<number> {
  // A file left by an earlier run of the same file would otherwise read as this job's failures.
  rmSync(target, { force: true });
  let out: ReturnType<typeof createWriteStream> | undefined;
  let failed = 0;
  for await (const line of importResults(url, auth)) {
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
  program
    .command('import <country> <file>')
    .description('bulk-import an NDJSON file (.gz or plain) through the API; exit code 1 unless the job ends done')
    .requiredOption('--key <key>', "the partner's API key")
    .option('--mode <mode>', "upsert, or replace: also delete the partner's listings the file does not name", importMode, 'upsert' as ImportMode)
    .option('--api <url>', "the API's base URL", `http://127.0.0.1:${config.PORT}`)
    .action(async (cc: string, file: string, opts: { key: string; mode: ImportMode; api: string }) => {
      const target: ImportTarget = { api: opts.api, country: cc.toLowerCase(), auth: { authorization: `Bearer ${opts.key}` } };
      const { job: queued, url } = await submitImport(target, opts.mode, fileBody(file));
      console.error(`job ${queued.id} ${queued.status}: ${url}`);
      const job = await followWithProgress(url, target.auth, queued);
      console.log(`job ${job.id} ${job.status}: ${countsLine(job.counts)}`);
      const error = jobErrorText(job);
      if (error) console.error(`error: ${error}`);
      if (job.counts.failed > 0) {
        const resultsFile = failedResultsPath(file);
        const written = await writeFailedResults(url, target.auth, resultsFile);
        console.error(`${written} failed lines' results written to ${resultsFile}`);
      }
      process.exitCode = exitCodeOf(job);
    });
}

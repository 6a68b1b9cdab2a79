// Re-enqueues outbox events whose job went missing: the API crashed between commit and enqueue,
// Redis was down, or a job exhausted its retries. Job ids make a re-enqueue of a waiting job a no-op.
import type { Logger } from 'pino';
import type { Db } from '../src/db/client.js';
import { findStrandedEvents } from '../src/outbox/outbox-dal.js';
import type { IndexQueue } from '../src/outbox/queue.js';
import { runEvery } from './periodic.js';

export interface RelayDeps {
  db: Db;
  queue: Pick<IndexQueue, 'enqueue'>;
  logger: Logger;
  graceMs: number;
  batchSize?: number;
}

/**
 * One pass: enqueues the newest pending version of every listing with a stranded event, one
 * written more than `graceMs` ago and, when `recentMs` is given, less than `recentMs` ago. Returns
 * how many listings it enqueued (at most the batch size).
 */
export async function relayStrandedEvents({ db, queue, graceMs, batchSize = 1000 }: RelayDeps, recentMs?: number): Promise<number> {
  const now = Date.now();
  const since = recentMs === undefined ? undefined : new Date(now - recentMs);
  const pending = await findStrandedEvents(db, { before: new Date(now - graceMs), since }, batchSize);
  await queue.enqueue(pending);
  return pending.length;
}

/**
 * Relays every `intervalMs`. Most passes look only at events of the last `recentMs`: a pass walks
 * the pending index over its whole range, and that index keeps the entries of processed events
 * until a vacuum removes them (bench/RESULTS.md: a pass over everything took 53 ms at 178 000
 * processed events, every second). The first pass, one in every `recentMs`, and every pass while
 * the last such pass found a full batch (a backlog to drain) look at all events, so an event left
 * pending longer (an outage longer than `recentMs`, or reopened by a reindex) waits at most
 * `recentMs` more.
 */
export function startRelay(deps: RelayDeps & { intervalMs: number; recentMs: number }): { stop(): Promise<void> } {
  const batchSize = deps.batchSize ?? 1000;
  let lastFullPass = -Infinity;
  let backlog = false;
  return runEvery(deps.intervalMs, async () => {
    const full = backlog || Date.now() - lastFullPass >= deps.recentMs;
    if (full) lastFullPass = Date.now();
    const count = await relayStrandedEvents({ ...deps, batchSize }, full ? undefined : deps.recentMs);
    if (full) backlog = count >= batchSize;
    if (count) deps.logger.info({ count, full }, 'relayed stranded outbox events');
  }, (err) => deps.logger.warn({ err }, 'outbox relay pass failed; retrying on the next tick'));
}

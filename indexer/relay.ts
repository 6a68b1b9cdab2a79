// Re-enqueues outbox events whose job went missing: the API crashed between commit and enqueue,
// Redis was down, or a job exhausted its retries. Job ids make a re-enqueue of a waiting job a no-op.
import type { Logger } from 'pino';
import type { Db } from '../src/db/client.js';
import { findStrandedEvents } from '../src/outbox/outbox-dal.js';
import type { IndexQueue } from '../src/outbox/queue.js';
import { runEvery } from './periodic.js';

/** Listings one pass enqueues at most. */
const BATCH_SIZE = 1000;

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
export async function relayStrandedEvents({ db, queue, graceMs, batchSize = BATCH_SIZE }: RelayDeps, recentMs?: number): Promise<number> {
  const pending = await findStrandedEvents(db, { olderThanMs: graceMs, newerThanMs: recentMs }, batchSize);
  await queue.enqueue(pending);
  return pending.length;
}

/**
 * Relays every `intervalMs`. Most passes look only at events of the last `recentMs`: a pass walks
 * the pending index over its whole range, and that index keeps the entries of processed events
 * until a vacuum removes them, so a pass over everything every second would cost more the more
 * events were processed since (docs/performance.md). The first pass, one in every `recentMs`, and every pass while
 * the last such pass found a full batch (a backlog to drain) look at all events, so an event left
 * pending longer (an outage longer than `recentMs`, or reopened by a reindex) waits at most
 * `recentMs` more. A full pass that fails is tried again on the next tick.
 */
export function startRelay(deps: RelayDeps & { intervalMs: number; recentMs: number }): { stop(): Promise<void> } {
  let nextFullPassAt = 0; // the first pass looks at all
  return runEvery(
    deps.intervalMs,
    async () => {
      const startedAt = Date.now();
      const full = startedAt >= nextFullPassAt;
      const count = await relayStrandedEvents(deps, full ? undefined : deps.recentMs);
      // A full batch is a backlog: the next pass looks at all again.
      if (full) nextFullPassAt = count >= (deps.batchSize ?? BATCH_SIZE) ? 0 : startedAt + deps.recentMs;
      if (count) deps.logger.info({ count, full }, 'relayed stranded outbox events');
    },
    (err) => deps.logger.warn({ err }, 'outbox relay pass failed; retrying on the next tick'),
  );
}

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

/** One pass: enqueues the newest pending version of every listing with a stranded event. */
export async function relayStrandedEvents({ db, queue, graceMs, batchSize = 1000 }: RelayDeps): Promise<number> {
  const cutoff = new Date(Date.now() - graceMs);
  const pending = await findStrandedEvents(db, cutoff, batchSize);
  await queue.enqueue(pending);
  return pending.length;
}

export function startRelay(deps: RelayDeps & { intervalMs: number }): { stop(): Promise<void> } {
  return runEvery(deps.intervalMs, async () => {
    const count = await relayStrandedEvents(deps);
    if (count) deps.logger.info({ count }, 'relayed stranded outbox events');
  }, (err) => deps.logger.warn({ err }, 'outbox relay pass failed; retrying on the next tick'));
}

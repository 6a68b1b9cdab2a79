// Fans committed feed changes out into webhook deliveries (docs/contract.md §15). One transaction
// per pass locks the dispatch position, reads the changes after it, inserts a delivery per
// matching subscription and advances the position: each change reaches each subscription exactly
// once, across restarts, and two indexers take turns on the lock instead of doubling deliveries.
import type { Logger } from 'pino';
import { readChangesAfter } from '../src/changes/changes-dal.js';
import type { Db } from '../src/db/client.js';
import type { DeliveryJob, DeliveryQueue } from '../src/webhooks/delivery-queue.js';
import { changeMessage, newMessageId, receivesChange } from '../src/webhooks/webhook-messages.js';
import { runEvery } from './periodic.js';
import { activeWebhooks, advanceDispatchPosition, insertDeliveries, lockDispatchPosition, type NewDelivery } from '../src/webhooks/webhooks-dal.js';

export interface DispatchDeps {
  db: Db;
  queue: Pick<DeliveryQueue, 'enqueue'>;
  logger: Logger;
  /** Changes read per pass. */
  batchSize?: number;
}

/** Rows per insert statement: far below PostgreSQL's 65535 parameters at 10 columns a row. */
const INSERT_CHUNK = 1000;

/** One pass; returns how many changes it consumed and the first attempts of the deliveries it created. */
export async function dispatchChanges({ db, batchSize = 1000 }: Pick<DispatchDeps, 'db' | 'batchSize'>): Promise<{ changes: number; firstAttempts: DeliveryJob[] }> {
  return db.transaction(async (tx) => {
    const position = await lockDispatchPosition(tx);
    const changes = await readChangesAfter(tx, position, batchSize);
    if (changes.length === 0) return { changes: 0, firstAttempts: [] };
    const subscriptions = await activeWebhooks(tx);
    const deliveries: NewDelivery[] = [];
    for (const change of changes) {
      for (const subscription of subscriptions) {
        if (!receivesChange(subscription, change)) continue;
        const publicId = newMessageId();
        deliveries.push({
          publicId,
          webhookId: subscription.id,
          changeId: change.id,
          type: change.kind,
          country: change.country,
          listingId: change.listingId,
          version: change.version,
          at: change.at,
          payload: JSON.stringify(changeMessage(publicId, change)),
        });
      }
    }
    const partnerOf = new Map(subscriptions.map((s) => [s.id, s.partnerId]));
    const firstAttempts: DeliveryJob[] = [];
    for (let i = 0; i < deliveries.length; i += INSERT_CHUNK) {
      const inserted = await insertDeliveries(tx, deliveries.slice(i, i + INSERT_CHUNK));
      firstAttempts.push(...inserted.map((d) => ({ deliveryId: d.id, attempt: 1, webhookId: d.webhookId, partnerId: partnerOf.get(d.webhookId)! })));
    }
    await advanceDispatchPosition(tx, changes.at(-1)!.seq);
    return { changes: changes.length, firstAttempts };
  });
}

/** Runs passes every `intervalMs` (back to back while a backlog lasts) and enqueues the first attempts. */
export function startDispatcher(deps: DispatchDeps & { intervalMs: number }): { stop(): Promise<void> } {
  const batchSize = deps.batchSize ?? 1000;
  return runEvery(
    deps.intervalMs,
    async () => {
      for (;;) {
        const { changes, firstAttempts } = await dispatchChanges({ db: deps.db, batchSize });
        try {
          await deps.queue.enqueue(firstAttempts);
        } catch (err) {
          // Committed: the sweeper enqueues them once Redis answers again.
          deps.logger.warn({ err, count: firstAttempts.length }, 'enqueueing webhook deliveries failed; the sweeper will');
        }
        if (changes < batchSize) return;
      }
    },
    (err) => deps.logger.warn({ err }, 'webhook dispatch pass failed; retrying on the next tick'),
  );
}

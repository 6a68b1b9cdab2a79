// Periodic clean-up of what has served its purpose: remembered Idempotency-Keys past their 24 h,
// outbox events indexed and webhook deliveries finished more than a week ago, change-feed entries
// past their retention (CHANGE_RETENTION_DAYS), versions of listings' history past theirs
// (HISTORY_RETENTION_DAYS), and stored image files no live image refers to.
import type { Logger } from 'pino';
import type { Db } from '../src/db/client.js';
import { purgeChangesThrough, purgeablePosition } from '../src/changes/changes-dal.js';
import { purgeExpiredIdempotencyKeys } from '../src/idempotency/idempotency-dal.js';
import { purgeHistoryBefore } from '../src/listings/listing-history-dal.js';
import { sweepMediaFiles, type MediaCleanupDeps } from '../src/media/media-cleanup.js';
import { purgeProcessedEvents } from '../src/outbox/outbox-dal.js';
import { allWebhookIds, dispatchedThrough, pruneDeliveries, purgeFinishedDeliveries } from '../src/webhooks/webhooks-dal.js';

const OUTBOX_KEEP_MS = 7 * 24 * 3600 * 1000;
/** Finished webhook deliveries stay listed (GET /webhooks/:id/deliveries) this long. */
const DELIVERIES_KEEP_MS = 7 * 24 * 3600 * 1000;

/** Rows deleted per statement: each stays far inside the statement timeout however large the backlog. */
const PURGE_BATCH = 5_000;

const DAY_MS = 24 * 3600 * 1000;

/** Runs a batched delete until a batch comes back short; returns the rows deleted. */
async function purgeInBatches(purgeBatch: (limit: number) => Promise<number>): Promise<number> {
  let total = 0;
  for (;;) {
    const deleted = await purgeBatch(PURGE_BATCH);
    total += deleted;
    if (deleted < PURGE_BATCH) return total;
  }
}

/** How long each kind of row is kept, in days. */
export interface Retention {
  changeRetentionDays?: number;
  historyRetentionDays?: number;
  /** WEBHOOK_DELIVERIES_KEPT: finished deliveries beyond a subscription's newest this many go. */
  deliveriesPerWebhook?: number;
}

export async function purgeExpired(
  db: Db,
  { changeRetentionDays = 7, historyRetentionDays = 400, deliveriesPerWebhook = 1000 }: Retention = {},
): Promise<{ keys: number; events: number; deliveries: number; changes: number; versions: number }> {
  const now = Date.now();
  const keys = await purgeExpiredIdempotencyKeys(db, now);
  const events = await purgeInBatches((limit) => purgeProcessedEvents(db, new Date(now - OUTBOX_KEEP_MS), limit));
  let deliveries = await purgeInBatches((limit) => purgeFinishedDeliveries(db, new Date(now - DELIVERIES_KEEP_MS), limit));
  // A busy subscription's deliveries are capped in number too, not only in age.
  for (const webhookId of await allWebhookIds(db)) deliveries += await pruneDeliveries(db, webhookId, deliveriesPerWebhook);
  // The oldest positions first, so the feed keeps an unbroken run of positions (changes-dal.ts).
  // Never past what the webhook dispatcher has fanned out: an indexer that was down longer than
  // the retention still delivers every change once it is back.
  const through = Math.min(await purgeablePosition(db, new Date(now - changeRetentionDays * DAY_MS)), (await dispatchedThrough(db)) ?? Infinity);
  const changes = await purgeInBatches((limit) => purgeChangesThrough(db, through, limit));
  // Any old row may go: a version is rebuilt from the newer ones (src/listings/listing-history.ts).
  const versions = await purgeInBatches((limit) => purgeHistoryBefore(db, new Date(now - historyRetentionDays * DAY_MS), limit));
  return { keys, events, deliveries, changes, versions };
}

export function startHousekeeping(
  { db, media, retention, logger }: { db: Db; media: Omit<MediaCleanupDeps, 'db'>; retention: Retention; logger: Logger },
  intervalMs = 15 * 60 * 1000,
): { stop(): void } {
  // Two independent chores: one failing must not starve the other.
  const chores = { rows: () => purgeExpired(db, retention), mediaFiles: () => sweepMediaFiles({ db, ...media }) };
  const timer = setInterval(() => {
    for (const [chore, run] of Object.entries(chores)) {
      run().then(
        (purged) => logger.info({ chore, purged }, 'housekeeping purged expired rows or files'),
        (err) => logger.warn({ err, chore }, 'housekeeping failed; retrying on the next tick'),
      );
    }
  }, intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}

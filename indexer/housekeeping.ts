// Periodic clean-up of what has served its purpose: remembered Idempotency-Keys past their 24 h,
// outbox events indexed more than a week ago, and stored image files no live image refers to.
import { and, isNotNull, lt } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Db } from '../src/db/client.js';
import { IDEMPOTENCY_TTL_MS, idempotencyKeys, outbox } from '../src/db/schema.js';
import { sweepMediaFiles, type MediaCleanupDeps } from '../src/media/media-cleanup.js';

const OUTBOX_KEEP_MS = 7 * 24 * 3600 * 1000;

export async function purgeExpired(db: Db): Promise<{ keys: number; events: number }> {
  const now = Date.now();
  const keys = await db.delete(idempotencyKeys).where(lt(idempotencyKeys.createdAt, new Date(now - IDEMPOTENCY_TTL_MS))).returning({ key: idempotencyKeys.key });
  const events = await db.delete(outbox)
    .where(and(isNotNull(outbox.processedAt), lt(outbox.processedAt, new Date(now - OUTBOX_KEEP_MS)))).returning({ id: outbox.id });
  return { keys: keys.length, events: events.length };
}

export function startHousekeeping(
  { db, media, logger }: { db: Db; media: Omit<MediaCleanupDeps, 'db'>; logger: Logger },
  intervalMs = 15 * 60 * 1000,
): { stop(): void } {
  const pass = async () => ({ ...await purgeExpired(db), mediaFiles: await sweepMediaFiles({ db, ...media }) });
  const timer = setInterval(() => {
    pass().then(
      (purged) => logger.info(purged, 'housekeeping purged expired rows and files'),
      (err) => logger.warn({ err }, 'housekeeping failed; retrying on the next tick'),
    );
  }, intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}

import t from 'tap';
import { eq } from 'drizzle-orm';
import { idempotencyKeys, outbox } from '../../src/db/schema.js';
import { purgeExpired } from '../../indexer/housekeeping.js';
import { build, runId } from '../helper.js';

const { deps, partner } = await build(t);
const { db } = deps.database;

t.test('expired Idempotency-Keys and old indexed outbox events are purged; current ones stay', async (t) => {
  const { id: partnerId } = await partner();
  const day = 24 * 3600 * 1000;
  await db.insert(idempotencyKeys).values([
    { partnerId, key: `old-${runId}`, requestHash: 'x', createdAt: new Date(Date.now() - day - 60_000) },
    { partnerId, key: `new-${runId}`, requestHash: 'x' },
  ]);
  const [oldEvent, pendingEvent] = await db.insert(outbox).values([
    { listingId: 1, country: 'de', version: 1, processedAt: new Date(Date.now() - 8 * day) },
    { listingId: 1, country: 'de', version: 2, createdAt: new Date(Date.now() - 8 * day) },
  ]).returning({ id: outbox.id });
  const purged = await purgeExpired(db);
  t.ok(purged.keys >= 1 && purged.events >= 1);
  const keys = await db.select({ key: idempotencyKeys.key }).from(idempotencyKeys).where(eq(idempotencyKeys.partnerId, partnerId));
  t.same(keys.map((k) => k.key), [`new-${runId}`]);
  t.same(await db.select().from(outbox).where(eq(outbox.id, oldEvent!.id)), []);
  t.equal((await db.select().from(outbox).where(eq(outbox.id, pendingEvent!.id))).length, 1, 'an unprocessed event is never purged');
  await db.delete(outbox).where(eq(outbox.id, pendingEvent!.id));
});

import t from 'tap';
import { and, eq, lte } from 'drizzle-orm';
import { idempotencyKeys, listingHistory, outbox } from '../../src/db/schema.js';
import { purgeExpired } from '../../indexer/housekeeping.js';
import { build, listingInput, runId } from '../helper.js';

const { app, deps, partner } = await build(t);
const { db } = deps.database;

t.test('expired Idempotency-Keys and old indexed outbox events are purged; current ones stay', async (t) => {
  const { id: partnerId } = await partner();
  const day = 24 * 3600 * 1000;
  await db.insert(idempotencyKeys).values([
    { partnerId, key: `old-${runId}`, requestHash: 'x', createdAt: new Date(Date.now() - day - 60_000) },
    { partnerId, key: `new-${runId}`, requestHash: 'x' },
  ]);
  const [oldEvent, pendingEvent] = await db
    .insert(outbox)
    .values([
      { listingId: 1, country: 'de', version: 1, processedAt: new Date(Date.now() - 8 * day) },
      { listingId: 1, country: 'de', version: 2, createdAt: new Date(Date.now() - 8 * day) },
    ])
    .returning({ id: outbox.id });
  const purged = await purgeExpired(db);
  t.ok(purged.keys >= 1 && purged.events >= 1);
  const keys = await db.select({ key: idempotencyKeys.key }).from(idempotencyKeys).where(eq(idempotencyKeys.partnerId, partnerId));
  t.same(
    keys.map((k) => k.key),
    [`new-${runId}`],
  );
  t.same(await db.select().from(outbox).where(eq(outbox.id, oldEvent!.id)), []);
  t.equal((await db.select().from(outbox).where(eq(outbox.id, pendingEvent!.id))).length, 1, 'an unprocessed event is never purged');
  await db.delete(outbox).where(eq(outbox.id, pendingEvent!.id));
});

t.test('history versions older than HISTORY_RETENTION_DAYS are purged; newer versions stay readable', async (t) => {
  const owner = await partner();
  const created = await app.inject({ method: 'POST', url: '/de/listings', headers: owner.auth, payload: listingInput({ name: `Retention ${runId}` }) });
  const id = created.json().id;
  await app.inject({ method: 'PATCH', url: `/de/listings/${id}`, headers: owner.auth, payload: { description: 'zwei' } });
  await app.inject({ method: 'PATCH', url: `/de/listings/${id}`, headers: owner.auth, payload: { description: 'drei' } });
  // The first two versions were written long ago.
  await db
    .update(listingHistory)
    .set({ at: new Date(Date.now() - 31 * 24 * 3600 * 1000) })
    .where(and(eq(listingHistory.listingId, Number(id)), lte(listingHistory.version, 2)));
  const purged = await purgeExpired(db, { historyRetentionDays: 30 });
  t.ok(purged.versions >= 2);
  const versions = (await app.inject({ url: `/de/listings/${id}/history`, headers: owner.auth })).json().versions;
  t.same(
    versions.map((v: { version: number }) => v.version),
    [3],
  );
  t.same(versions[0].fields[0], { field: 'description', from: 'zwei', to: 'drei' }, 'the kept version still shows its values');
  t.equal((await app.inject({ url: `/de/listings/${id}?version=2`, headers: owner.auth })).statusCode, 404, 'a purged version is gone');
  t.equal((await app.inject({ url: `/de/listings/${id}?version=3`, headers: owner.auth })).statusCode, 200);
});

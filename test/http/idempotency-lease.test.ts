// An Idempotency-Key whose process died before answering is taken over after its lease
// (IDEMPOTENCY_LEASE_MS) instead of answering 409 for 24 h; while its holder lives, a retry
// learns that the request is still in progress and when to come back.
import t from 'tap';
import { and, eq, sql } from 'drizzle-orm';
import { idempotencyKeys, reviews } from '../../src/db/schema.js';
import { createIdempotencyDal } from '../../src/idempotency/idempotency-dal.js';
import { build, listingInput, runId } from '../helper.js';

const { app, deps, partner } = await build(t);
const { db } = deps.database;
const alice = await partner();
const { id: listingId } = (await app.inject({ method: 'POST', url: '/de/listings', headers: alice.auth, payload: listingInput() })).json();

let n = 0;
const review = () => ({ source_id: `lease-${runId}-${++n}`, reviewer: 'R', reviewed: '', title: '', text: 'ok', rating: 4, date_time: '2026-05-01T12:00:00+02:00' });
const post = (key: string, body: object) => app.inject({ method: 'POST', url: `/de/listings/${listingId}/reviews`, headers: { ...alice.auth, 'idempotency-key': key }, payload: body });
const keyOf = (key: string) => and(eq(idempotencyKeys.partnerId, alice.id), eq(idempotencyKeys.key, key));
const reviewsWith = async (sourceId: string) => (await db.select({ id: reviews.id }).from(reviews).where(eq(reviews.sourceId, sourceId))).map((r) => String(r.id));

/**
 * Turns the answered key back into what a process leaves when it dies after taking the key and
 * before storing the answer: no status, and a lease that ends `leaseEndsInMs` from now.
 */
async function abandon(key: string, leaseEndsInMs: number) {
  await db
    .update(idempotencyKeys)
    .set({ statusCode: null, response: null, lockedUntil: sql`now() + ${leaseEndsInMs}::int * interval '1 millisecond'` })
    .where(keyOf(key));
}

t.test('a key left in progress by a dead process is taken over once its lease ran out: the retry performs the request, 201', async (t) => {
  const key = `lease-${runId}-dead`;
  const body = review();
  const first = await post(key, body);
  t.equal(first.statusCode, 201, first.body);
  // The process died before its create committed: no review, the key still in progress.
  await db.delete(reviews).where(eq(reviews.id, Number(first.json().id)));
  await abandon(key, -1000);

  const retry = await post(key, body);
  t.equal(retry.statusCode, 201, retry.body);
  t.not(retry.headers['idempotent-replayed'], 'true', 'performed, not replayed');
  t.same(await reviewsWith(body.source_id), [retry.json().id], 'created once, by the retry');
  const [row] = await db.select().from(idempotencyKeys).where(keyOf(key));
  t.equal(row!.statusCode, 201, 'the retry stored its answer');
  t.equal(row!.attempt, 2, 'a take-over is a new attempt');

  const again = await post(key, body);
  t.equal(again.statusCode, 201);
  t.equal(again.headers['idempotent-replayed'], 'true');
  t.same(again.json(), retry.json());
});

t.test('a key whose holder still lives answers 409 in_progress with Retry-After, and nothing is created', async (t) => {
  const key = `lease-${runId}-live`;
  const body = review();
  t.equal((await post(key, body)).statusCode, 201);
  await abandon(key, 60_000);

  const started = Date.now();
  const retry = await post(key, body);
  t.equal(retry.statusCode, 409, retry.body);
  t.same(retry.json(), { type: 'conflict', message: retry.json().message, details: ['state: in_progress'] });
  const retryAfter = Number(retry.headers['retry-after']);
  t.ok(retryAfter >= 1 && retryAfter <= 60, `Retry-After ${retry.headers['retry-after']} is when the lease ends at the latest`);
  t.ok(Date.now() - started >= 9000, 'it waited for the first answer before giving up');
  t.equal((await reviewsWith(body.source_id)).length, 1, 'nothing created by the retry');
  const [row] = await db.select().from(idempotencyKeys).where(keyOf(key));
  t.equal(row!.attempt, 1, 'not taken over');
});

t.test('a create that committed but whose answer was never stored: the retry after the lease says it exists (409 naming the review)', async (t) => {
  const key = `lease-${runId}-committed`;
  const body = review();
  const first = await post(key, body);
  t.equal(first.statusCode, 201);
  await abandon(key, -1000);

  const retry = await post(key, body);
  t.equal(retry.statusCode, 409, retry.body);
  t.equal(retry.json().type, 'conflict');
  t.match(retry.json().message, new RegExp(`review ${first.json().id} `));
  t.same(await reviewsWith(body.source_id), [first.json().id], 'still one review');
  t.same(await db.select().from(idempotencyKeys).where(keyOf(key)), [], 'the failed retry released the key');
});

t.test('of concurrent retries exactly one takes an abandoned key, and a late former holder can neither renew nor complete it', async (t) => {
  const keys = createIdempotencyDal(db, 30_000);
  const id = { partnerId: alice.id, key: `lease-${runId}-dal` };
  const first = await keys.acquire(id, 'h');
  if (first.state !== 'held') throw new Error(`expected to hold the key, got ${first.state}`);
  await abandon(id.key, -1000);

  const takers = await Promise.all(Array.from({ length: 8 }, () => keys.acquire(id, 'h')));
  const held = takers.flatMap((s) => (s.state === 'held' ? [s.lease] : []));
  t.equal(held.length, 1, 'one take-over');
  t.ok(
    takers.every((s) => s.state === 'held' || s.state === 'in_progress'),
    'the others see it in progress',
  );
  t.same((await keys.acquire(id, 'other')).state, 'other_request');

  t.equal(await keys.renew(first.lease), false, 'the former holder lost its lease');
  await keys.complete(first.lease, 201, { late: true });
  await keys.release(first.lease);
  const [row] = await db.select().from(idempotencyKeys).where(keyOf(id.key));
  t.equal(row!.statusCode, null, 'the late answer was not stored, nor the key released');

  const lease = held[0]!;
  t.equal(lease.attempt, 2);
  t.equal(await keys.renew(lease), true);
  await keys.complete(lease, 201, { ok: true });
  t.same(await keys.acquire(id, 'h'), { state: 'answered', statusCode: 201, response: { ok: true } });
});

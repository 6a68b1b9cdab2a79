// Every SQL statement on idempotency_keys for the API. A key without a stored answer is held by a
// lease: its request renews `locked_until` while it runs, so a key whose lease ran out belongs to
// a process that died, and the next retry takes it over instead of waiting 24 h.
// Lease times are PostgreSQL's clock, the one every API instance shares.
import { and, eq, isNull, lt, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../db/client.js';
import { IDEMPOTENCY_TTL_MS, idempotencyKeys } from '../db/schema.js';

export interface KeyId {
  partnerId: number;
  key: string;
}

/** Proof of holding a key: renewal and completion count only for the current attempt. */
export interface KeyLease extends KeyId {
  attempt: number;
}

export type KeyState =
  | { state: 'held'; lease: KeyLease }
  | { state: 'answered'; statusCode: number; response: unknown }
  | { state: 'in_progress'; leaseLeftMs: number }
  | { state: 'other_request' }
  /** The holder failed and let go between our statements: ask again. */
  | { state: 'released' };

export function createIdempotencyDal(db: Db, leaseMs: number) {
  const same = (id: KeyId) => and(eq(idempotencyKeys.partnerId, id.partnerId), eq(idempotencyKeys.key, id.key));
  const current = (lease: KeyLease) => and(same(lease), eq(idempotencyKeys.attempt, lease.attempt), isNull(idempotencyKeys.statusCode));
  const leaseEnd = () => sql`now() + ${leaseMs}::int * interval '1 millisecond'`;

  return {
    /** Drops the key if it is older than the 24 h it is remembered. */
    async forgetExpired(id: KeyId): Promise<void> {
      await db.delete(idempotencyKeys).where(and(same(id), lt(idempotencyKeys.createdAt, new Date(Date.now() - IDEMPOTENCY_TTL_MS))));
    },

    /** Takes the key for this request, or says who has it. */
    async acquire(id: KeyId, requestHash: string): Promise<KeyState> {
      const [inserted] = await db
        .insert(idempotencyKeys)
        .values({ ...id, requestHash, lockedUntil: leaseEnd() })
        .onConflictDoNothing()
        .returning({ attempt: idempotencyKeys.attempt });
      if (inserted) return { state: 'held', lease: { ...id, attempt: inserted.attempt } };
      // One UPDATE: PostgreSQL re-checks the condition on the row a concurrent take-over wrote,
      // so of several retries exactly one takes an abandoned key.
      const [taken] = await db
        .update(idempotencyKeys)
        .set({ attempt: sql`${idempotencyKeys.attempt} + 1`, lockedUntil: leaseEnd() })
        .where(and(same(id), eq(idempotencyKeys.requestHash, requestHash), isNull(idempotencyKeys.statusCode), lt(idempotencyKeys.lockedUntil, sql`now()`)))
        .returning({ attempt: idempotencyKeys.attempt });
      if (taken) return { state: 'held', lease: { ...id, attempt: taken.attempt } };
      const [row] = await db
        .select({
          requestHash: idempotencyKeys.requestHash,
          statusCode: idempotencyKeys.statusCode,
          response: idempotencyKeys.response,
          leaseLeftMs: sql<number>`greatest(0, extract(epoch from ${idempotencyKeys.lockedUntil} - now()) * 1000)::float8`,
        })
        .from(idempotencyKeys)
        .where(same(id));
      if (!row) return { state: 'released' };
      if (row.requestHash !== requestHash) return { state: 'other_request' };
      if (row.statusCode !== null) return { state: 'answered', statusCode: row.statusCode, response: row.response };
      return { state: 'in_progress', leaseLeftMs: row.leaseLeftMs };
    },

    /** Extends the lease; false once the key was answered, released or taken over. */
    async renew(lease: KeyLease): Promise<boolean> {
      const rows = await db.update(idempotencyKeys).set({ lockedUntil: leaseEnd() }).where(current(lease)).returning({ attempt: idempotencyKeys.attempt });
      return rows.length > 0;
    },

    /** Stores the answer that retries replay. */
    async complete(lease: KeyLease, statusCode: number, response: unknown): Promise<void> {
      await db.update(idempotencyKeys).set({ statusCode, response }).where(current(lease));
    },

    /** Forgets a failed request, so the partner may fix it and retry with the same key. */
    async release(lease: KeyLease): Promise<void> {
      await db.delete(idempotencyKeys).where(current(lease));
    },
  };
}

/** Deletes every key older than the 24 h it is remembered, as of `now` (ms); returns how many went. */
export async function purgeExpiredIdempotencyKeys(db: DbOrTx, now = Date.now()): Promise<number> {
  const rows = await db
    .delete(idempotencyKeys)
    .where(lt(idempotencyKeys.createdAt, new Date(now - IDEMPOTENCY_TTL_MS)))
    .returning({ key: idempotencyKeys.key });
  return rows.length;
}

export type IdempotencyDal = ReturnType<typeof createIdempotencyDal>;

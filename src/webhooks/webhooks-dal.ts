// Every SQL statement on the webhook tables (docs/contract.md §15): subscriptions (API), the
// fan-out of feed changes into deliveries (indexer dispatcher) and the delivery attempts
// (indexer delivery worker).
import { and, desc, eq, inArray, isNull, lt, lte, ne, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../db/client.js';
import { listingChanges, partners, webhookDeliveries, webhookDispatchState, webhooks } from '../db/schema.js';
import type { Role } from '../partners/keys-dal.js';
import { SEALED_PREFIX } from './secret-box.js';

export type WebhookRow = typeof webhooks.$inferSelect;
export type NewWebhook = Pick<typeof webhooks.$inferInsert, 'partnerId' | 'url' | 'events' | 'countries' | 'scope' | 'secret'>;
export type WebhookSettings = Pick<WebhookRow, 'url' | 'events' | 'countries' | 'scope'>;
export type DeliveryRow = typeof webhookDeliveries.$inferSelect;
export type NewDelivery = Pick<typeof webhookDeliveries.$inferInsert, 'publicId' | 'webhookId' | 'changeId' | 'type' | 'country' | 'listingId' | 'version' | 'at' | 'payload'>;

/** The database's now plus `ms`: due times are compared with its clock only. */
const inMs = (ms: number) => sql`now() + ${Math.round(ms)}::int * interval '1 millisecond'`;

// --- Subscriptions --------------------------------------------------------------------------------

/**
 * Locks the partner's row until the transaction ends: concurrent creates by one partner run one
 * after the other, so each counts the subscriptions the previous one committed.
 */
export async function lockPartnerForWebhooks(tx: DbOrTx, partnerId: number): Promise<void> {
  await tx.select({ id: partners.id }).from(partners).where(eq(partners.id, partnerId)).for('update');
}

export async function countWebhooks(db: DbOrTx, partnerId: number): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)`.mapWith(Number) })
    .from(webhooks)
    .where(eq(webhooks.partnerId, partnerId));
  return row!.n;
}

export async function insertWebhook(db: DbOrTx, webhook: NewWebhook): Promise<WebhookRow> {
  const [row] = await db.insert(webhooks).values(webhook).returning();
  return row!;
}

export function listWebhooks(db: DbOrTx, partnerId: number): Promise<WebhookRow[]> {
  return db.select().from(webhooks).where(eq(webhooks.partnerId, partnerId)).orderBy(webhooks.id);
}

/** The partner's subscription `id`; another partner's is as absent as one that never existed. */
export async function findWebhook(db: DbOrTx, partnerId: number, id: number): Promise<WebhookRow | undefined> {
  const [row] = await db
    .select()
    .from(webhooks)
    .where(and(eq(webhooks.id, id), eq(webhooks.partnerId, partnerId)));
  return row;
}

/** Replaces the settings and makes the subscription active again. */
export async function replaceWebhook(db: DbOrTx, partnerId: number, id: number, settings: WebhookSettings): Promise<WebhookRow | undefined> {
  const [row] = await db
    .update(webhooks)
    .set({ ...settings, status: 'active', disabledAt: null })
    .where(and(eq(webhooks.id, id), eq(webhooks.partnerId, partnerId)))
    .returning();
  return row;
}

/** Deletes the subscription and (by cascade) its deliveries; false when the partner has none with that id. */
export async function deleteWebhook(db: DbOrTx, partnerId: number, id: number): Promise<boolean> {
  const rows = await db
    .delete(webhooks)
    .where(and(eq(webhooks.id, id), eq(webhooks.partnerId, partnerId)))
    .returning({ id: webhooks.id });
  return rows.length > 0;
}

export type ActiveWebhook = WebhookRow & { partnerRole: Role };

/**
 * Subscriptions that receive changes, with their partner's role (admins see every review); a
 * revoked partner's receive nothing. The dispatcher reads them once per pass.
 */
export async function activeWebhooks(db: DbOrTx): Promise<ActiveWebhook[]> {
  const rows = await db
    .select({ webhook: webhooks, partnerRole: partners.role })
    .from(webhooks)
    .innerJoin(partners, eq(partners.id, webhooks.partnerId))
    .where(and(eq(webhooks.status, 'active'), isNull(partners.revokedAt)));
  return rows.map((r) => ({ ...r.webhook, partnerRole: r.partnerRole }));
}

/** A receiving subscription and the stored secrets that sign for it now: the current one first. */
export type ReceivingWebhook = WebhookRow & { signingSecrets: string[] };

/**
 * The subscription a delivery goes to, if it still receives: active, and its partner not revoked.
 * A rotated-out secret signs too until its time is up, by the database's clock.
 */
export async function findReceivingWebhook(db: DbOrTx, id: number): Promise<ReceivingWebhook | undefined> {
  const [row] = await db
    .select({ webhook: webhooks, previousValid: sql<boolean>`${webhooks.previousSecretUntil} > now()` })
    .from(webhooks)
    .innerJoin(partners, eq(partners.id, webhooks.partnerId))
    .where(and(eq(webhooks.id, id), eq(webhooks.status, 'active'), isNull(partners.revokedAt)));
  if (!row) return undefined;
  const { webhook, previousValid } = row;
  return { ...webhook, signingSecrets: previousValid && webhook.previousSecret ? [webhook.secret, webhook.previousSecret] : [webhook.secret] };
}

/**
 * Makes `secret` (stored form) the subscription's secret; the one it replaces keeps signing for
 * `graceMs`, and a secret rotated out before that is dropped. Undefined when the partner has no
 * such subscription.
 */
export async function rotateWebhookSecret(db: DbOrTx, partnerId: number, id: number, secret: string, graceMs: number): Promise<WebhookRow | undefined> {
  const [row] = await db
    .update(webhooks)
    .set({ secret, previousSecret: sql`${webhooks.secret}`, previousSecretUntil: inMs(graceMs) })
    .where(and(eq(webhooks.id, id), eq(webhooks.partnerId, partnerId)))
    .returning();
  return row;
}

/** Stored secrets (current or previous) still in clear text, written before secrets were sealed. */
export function findClearSecrets(db: DbOrTx, limit: number): Promise<Pick<WebhookRow, 'id' | 'secret' | 'previousSecret'>[]> {
  return db
    .select({ id: webhooks.id, secret: webhooks.secret, previousSecret: webhooks.previousSecret })
    .from(webhooks)
    .where(sql`${webhooks.secret} not like ${`${SEALED_PREFIX}%`} or ${webhooks.previousSecret} not like ${`${SEALED_PREFIX}%`}`)
    .orderBy(webhooks.id)
    .limit(limit);
}

/** Replaces a clear-text secret by its sealed form, unless it changed meanwhile (a rotation). */
export async function replaceStoredSecrets(db: DbOrTx, id: number, clear: Pick<WebhookRow, 'secret' | 'previousSecret'>, sealed: Pick<WebhookRow, 'secret' | 'previousSecret'>): Promise<void> {
  await db
    .update(webhooks)
    .set(sealed)
    .where(and(eq(webhooks.id, id), eq(webhooks.secret, clear.secret), clear.previousSecret === null ? isNull(webhooks.previousSecret) : eq(webhooks.previousSecret, clear.previousSecret)));
}

// --- Deliveries -----------------------------------------------------------------------------------

/** Inserts deliveries due now; a change already fanned out to a subscription is skipped. Returns the new ones. */
export function insertDeliveries(db: DbOrTx, deliveries: NewDelivery[]): Promise<Pick<DeliveryRow, 'id' | 'webhookId'>[]> {
  if (deliveries.length === 0) return Promise.resolve([]);
  return db.insert(webhookDeliveries).values(deliveries).onConflictDoNothing().returning({ id: webhookDeliveries.id, webhookId: webhookDeliveries.webhookId });
}

/** The subscription's deliveries, newest first. */
export function listDeliveries(db: DbOrTx, webhookId: number, limit: number): Promise<DeliveryRow[]> {
  return db.select().from(webhookDeliveries).where(eq(webhookDeliveries.webhookId, webhookId)).orderBy(desc(webhookDeliveries.id)).limit(limit);
}

/**
 * Pending deliveries overdue by more than `graceMs` (their job was lost, or never enqueued), oldest
 * due first, with their subscription's partner (the worker's caps count per partner).
 */
export function findDueDeliveries(db: DbOrTx, graceMs: number, limit: number): Promise<(Pick<DeliveryRow, 'id' | 'attempts' | 'webhookId'> & { partnerId: number })[]> {
  return db
    .select({ id: webhookDeliveries.id, attempts: webhookDeliveries.attempts, webhookId: webhookDeliveries.webhookId, partnerId: webhooks.partnerId })
    .from(webhookDeliveries)
    .innerJoin(webhooks, eq(webhooks.id, webhookDeliveries.webhookId))
    .where(and(eq(webhookDeliveries.status, 'pending'), lt(webhookDeliveries.nextAttemptAt, inMs(-graceMs))))
    .orderBy(webhookDeliveries.nextAttemptAt)
    .limit(limit);
}

/** Clock skew between Redis's delay and PostgreSQL's clock that a delayed job may run early by. */
const EARLY_TOLERANCE_MS = 1000;

/**
 * Takes attempt number `attempt` of a pending, due delivery: moves its due time `leaseMs` ahead so
 * no sweeper re-enqueues it while the attempt runs (if this process dies, the lease runs out and
 * the sweeper does). Undefined when the delivery is gone, finished, not due, or this attempt was
 * already made: the job is a duplicate and does nothing.
 */
export async function claimAttempt(db: DbOrTx, deliveryId: number, attempt: number, leaseMs: number): Promise<DeliveryRow | undefined> {
  const [row] = await db
    .update(webhookDeliveries)
    .set({ nextAttemptAt: inMs(leaseMs) })
    .where(
      and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.status, 'pending'), eq(webhookDeliveries.attempts, attempt - 1), lte(webhookDeliveries.nextAttemptAt, inMs(EARLY_TOLERANCE_MS))),
    )
    .returning();
  return row;
}

/**
 * The outcome of attempt number `attempt` is written only while the delivery is still pending at
 * the attempt before it: if the attempt outlived its lease and another worker made it again, the
 * first result written counts and the other changes nothing (no attempt counted twice, no
 * delivered delivery turned failed).
 */
const stillAttempt = (deliveryId: number, attempt: number) => and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.status, 'pending'), eq(webhookDeliveries.attempts, attempt - 1));

export async function markDelivered(db: DbOrTx, deliveryId: number, attempt: number, statusCode: number): Promise<void> {
  await db.update(webhookDeliveries).set({ status: 'delivered', attempts: attempt, lastStatusCode: statusCode, deliveredAt: sql`now()` }).where(stillAttempt(deliveryId, attempt));
}

/** Counts a failed attempt and sets when the next one is due. */
export async function scheduleRetry(db: DbOrTx, deliveryId: number, attempt: number, statusCode: number | null, delayMs: number): Promise<void> {
  await db
    .update(webhookDeliveries)
    .set({ attempts: attempt, lastStatusCode: statusCode, nextAttemptAt: inMs(delayMs) })
    .where(stillAttempt(deliveryId, attempt));
}

/** The last attempt failed: the delivery has failed and its subscription is disabled, in one transaction. */
export async function failAndDisable(db: Db, delivery: Pick<DeliveryRow, 'id' | 'webhookId'>, attempt: number, statusCode: number | null): Promise<void> {
  await db.transaction(async (tx) => {
    const failed = await tx
      .update(webhookDeliveries)
      .set({ status: 'failed', attempts: attempt, lastStatusCode: statusCode })
      .where(stillAttempt(delivery.id, attempt))
      .returning({ id: webhookDeliveries.id });
    if (failed.length === 0) return; // another run of this attempt wrote its outcome first
    await disableWebhook(tx, delivery.webhookId);
  });
}

/**
 * Disables a subscription and fails its pending deliveries unsent (docs/contract.md §15): a later
 * PUT re-enables it for new changes only.
 */
export async function disableWebhook(tx: DbOrTx, webhookId: number): Promise<void> {
  await tx
    .update(webhooks)
    .set({ status: 'disabled', disabledAt: sql`now()` })
    .where(and(eq(webhooks.id, webhookId), ne(webhooks.status, 'disabled')));
  await tx
    .update(webhookDeliveries)
    .set({ status: 'failed' })
    .where(and(eq(webhookDeliveries.webhookId, webhookId), eq(webhookDeliveries.status, 'pending')));
}

/** Gives up a delivery without an attempt (its subscription is disabled). */
export async function abandonDelivery(db: DbOrTx, deliveryId: number): Promise<void> {
  await db
    .update(webhookDeliveries)
    .set({ status: 'failed' })
    .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.status, 'pending')));
}

/** The partner's subscription `id`, locked until the transaction ends; undefined when it has none. */
export async function lockOwnedWebhook(tx: DbOrTx, partnerId: number, id: number): Promise<WebhookRow | undefined> {
  const [row] = await tx
    .select()
    .from(webhooks)
    .where(and(eq(webhooks.id, id), eq(webhooks.partnerId, partnerId)))
    .for('update');
  return row;
}

/** The subscription's pings asked for in the last `windowMs`, and the age in ms of the oldest of them. */
export async function recentPings(db: DbOrTx, webhookId: number, windowMs: number): Promise<{ count: number; oldestAgeMs: number }> {
  const [row] = await db
    .select({
      count: sql<number>`count(*)`.mapWith(Number),
      oldestAgeMs: sql<number>`coalesce(extract(epoch from now() - min(${webhookDeliveries.createdAt})) * 1000, 0)`.mapWith(Number),
    })
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.webhookId, webhookId), isNull(webhookDeliveries.changeId), sql`${webhookDeliveries.createdAt} > ${inMs(-windowMs)}`));
  return row!;
}

/**
 * Deletes the subscription's finished deliveries older than its newest `keep` (pending ones stay
 * until sent); returns how many. Walks at most `keep` entries of the subscription's index.
 */
export async function pruneDeliveries(db: DbOrTx, webhookId: number, keep: number): Promise<number> {
  const oldestKept = db
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.webhookId, webhookId))
    .orderBy(desc(webhookDeliveries.id))
    .offset(keep - 1)
    .limit(1);
  const rows = await db
    .delete(webhookDeliveries)
    .where(and(eq(webhookDeliveries.webhookId, webhookId), ne(webhookDeliveries.status, 'pending'), lt(webhookDeliveries.id, oldestKept)))
    .returning({ id: webhookDeliveries.id });
  return rows.length;
}

/** Every subscription's id, for housekeeping. */
export async function allWebhookIds(db: DbOrTx): Promise<number[]> {
  return (await db.select({ id: webhooks.id }).from(webhooks)).map((r) => r.id);
}

/** Deletes up to `limit` finished deliveries created before `before`; returns how many. */
export async function purgeFinishedDeliveries(db: DbOrTx, before: Date, limit: number): Promise<number> {
  const old = db
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .where(and(inArray(webhookDeliveries.status, ['delivered', 'failed']), lt(webhookDeliveries.createdAt, before)))
    .limit(limit);
  const rows = await db.delete(webhookDeliveries).where(inArray(webhookDeliveries.id, old)).returning({ id: webhookDeliveries.id });
  return rows.length;
}

// --- Dispatch position ----------------------------------------------------------------------------

const DISPATCH_STATE_ID = 1;

/** The dispatch position's row, locked until the transaction ends; undefined before the first pass. */
async function lockedDispatchRow(tx: DbOrTx): Promise<{ lastSeq: number } | undefined> {
  const [row] = await tx.select({ lastSeq: webhookDispatchState.lastSeq }).from(webhookDispatchState).where(eq(webhookDispatchState.id, DISPATCH_STATE_ID)).for('update');
  return row;
}

/**
 * The position up to which changes were fanned out, locked until the transaction ends: a second
 * indexer's pass waits here and then continues from this one's committed position. The first
 * pass ever starts just before the first change since the oldest subscription was created (at
 * the end of the feed when there is none): older changes would reach no one, and a feed of many
 * days need not be scanned for nothing. Every later pass only reads and locks the one row: the
 * start is a scan of the feed, and PostgreSQL computes an `insert … select` before it learns of
 * the conflict, so asking for it on every pass cost a scan of the whole feed five times a second.
 */
export async function lockDispatchPosition(tx: DbOrTx): Promise<number> {
  const locked = await lockedDispatchRow(tx);
  if (locked) return locked.lastSeq;
  await tx.execute(sql`
    insert into ${webhookDispatchState} (id, last_seq)
    select ${DISPATCH_STATE_ID}, coalesce(
      (select min(${listingChanges.seq}) - 1 from ${listingChanges}
        where ${listingChanges.at} >= (select min(${webhooks.createdAt}) from ${webhooks})),
      (select max(${listingChanges.seq}) from ${listingChanges}),
      0)
    on conflict (id) do nothing`);
  // Another indexer's first pass may have inserted it meanwhile: its row stands.
  return (await lockedDispatchRow(tx))!.lastSeq;
}

/** How far the dispatcher has fanned the feed out, undefined before its first pass. */
export async function dispatchedThrough(db: DbOrTx): Promise<number | undefined> {
  const [row] = await db.select({ lastSeq: webhookDispatchState.lastSeq }).from(webhookDispatchState).where(eq(webhookDispatchState.id, DISPATCH_STATE_ID));
  return row?.lastSeq;
}

export async function advanceDispatchPosition(tx: DbOrTx, lastSeq: number): Promise<void> {
  await tx.update(webhookDispatchState).set({ lastSeq, updatedAt: sql`now()` }).where(eq(webhookDispatchState.id, DISPATCH_STATE_ID));
}

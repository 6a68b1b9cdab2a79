// The webhook tables (docs/contract.md §15), re-exported by schema.ts: drizzle-kit and the DAL
// modules see one schema. The references to `partners` are functions, read after both modules loaded.
import { sql } from 'drizzle-orm';
import { bigserial, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, id } from './columns.js';
import { partners } from './schema.js';

/**
 * A partner's subscription. Signing needs the secret itself (a hash would not do), so it is stored
 * encrypted (src/webhooks/secret-box.ts); after a rotation the previous secret signs too until
 * `previousSecretUntil` (docs/partners/sync-and-webhooks.md).
 */
export const webhooks = pgTable(
  'webhooks',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    partnerId: id('partner_id')
      .notNull()
      .references(() => partners.id),
    url: text('url').notNull(),
    /** Change kinds, or `['*']` for every kind. */
    events: text('events').array().notNull(),
    countries: text('countries').array().notNull(),
    scope: text('scope', { enum: ['claimed', 'all'] }).notNull(),
    status: text('status', { enum: ['active', 'disabled'] })
      .notNull()
      .default('active'),
    secret: text('secret').notNull(),
    previousSecret: text('previous_secret'),
    previousSecretUntil: timestamp('previous_secret_until', { withTimezone: true }),
    createdAt: createdAt(),
    disabledAt: timestamp('disabled_at', { withTimezone: true }),
  },
  (t) => [index('webhooks_partner_idx').on(t.partnerId, t.id), index('webhooks_active_idx').on(t.id).where(sql`status = 'active'`)],
);

/**
 * One message to one subscription. `payload` is the exact body sent, so every retry is
 * byte-identical and carries the same `publicId` (the `webhook-id` header and the body's `id`).
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    publicId: text('public_id').notNull(),
    webhookId: id('webhook_id')
      .notNull()
      .references(() => webhooks.id, { onDelete: 'cascade' }),
    /** The change it announces (null for a ping): with the unique index, a change reaches a subscription once. */
    changeId: id('change_id'),
    type: text('type').notNull(),
    country: text('country'),
    listingId: id('listing_id'),
    version: id('version'),
    /** When the change happened (a ping: when it was asked for). */
    at: timestamp('at', { withTimezone: true }).notNull(),
    payload: text('payload').notNull(),
    status: text('status', { enum: ['pending', 'delivered', 'failed'] })
      .notNull()
      .default('pending'),
    attempts: integer('attempts').notNull().default(0),
    lastStatusCode: integer('last_status_code'),
    /** When the next attempt is due; while an attempt runs, when it is presumed dead. */
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    createdAt: createdAt(),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('webhook_deliveries_public_id_idx').on(t.publicId),
    uniqueIndex('webhook_deliveries_change_idx').on(t.webhookId, t.changeId),
    index('webhook_deliveries_due_idx').on(t.nextAttemptAt).where(sql`status = 'pending'`),
    index('webhook_deliveries_newest_idx').on(t.webhookId, t.id),
    index('webhook_deliveries_created_idx').on(t.createdAt),
  ],
);

/** One row (id 1): the change-feed position up to which changes have been fanned out to subscriptions. */
export const webhookDispatchState = pgTable('webhook_dispatch_state', {
  id: integer('id').primaryKey(),
  lastSeq: id('last_seq').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

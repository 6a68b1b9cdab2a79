// PostgreSQL is the source of truth (docs/contract.md §12). Every table the service owns is here,
// the webhook and bulk import tables through the modules re-exported at the end;
// `npm run db:generate` turns changes into SQL migrations under drizzle/.
import { sql } from 'drizzle-orm';
import {
  bigserial, boolean, check, customType, doublePrecision, index, integer, jsonb, pgTable, primaryKey, real,
  text, timestamp, uniqueIndex,
} from 'drizzle-orm/pg-core';
import type { ChangeKind } from '../changes/change-kinds.js';
import type { WriteChannel } from '../changes/write-channels.js';
import { createdAt, id } from './columns.js';

export const partners = pgTable('partners', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  name: text('name').notNull(),
  // Analysts (docs/contract.md §22) only read; the check keeps a mistyped role out of the table.
  role: text('role', { enum: ['partner', 'admin', 'analyst'] }).notNull().default('partner'),
  createdAt: createdAt(),
  revokedAt: timestamp('revoked_at', { withTimezone: true }),
}, (t) => [check('partners_role_check', sql`${t.role} in ('partner', 'admin', 'analyst')`)]);

/** Only a SHA-256 of each key is stored; keys carry 256 bits of entropy, so no slow hash is needed. */
export const apiKeys = pgTable('api_keys', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  partnerId: id('partner_id').notNull().references(() => partners.id),
  keyHash: text('key_hash').notNull(),
  createdAt: createdAt(),
  revokedAt: timestamp('revoked_at', { withTimezone: true }),
}, (t) => [uniqueIndex('api_keys_key_hash_idx').on(t.keyHash)]);

export const categories = pgTable('categories', {
  country: text('country').notNull(),
  id: text('id').notNull(),
  name: text('name').notNull(),
}, (t) => [primaryKey({ columns: [t.country, t.id] })]);

export type Interval = { start: string; end: string };
export type StoredHours = Record<string, Interval[]>;
// Opening hours beyond the week (docs/contract.md §18).
export type StoredSpecialDay = { date: string; closed: boolean; intervals: Interval[] };
export type StoredClosure = { until: string | null };

export type StoredContact = { name: string; surname: string; title: string; gender: string };

export const listings = pgTable('listings', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  country: text('country').notNull(),
  name: text('name').notNull(),
  address: text('address').notNull(),
  zip: text('zip').notNull(),
  place: text('place').notNull(),
  latitude: doublePrecision('latitude'),
  longitude: doublePrecision('longitude'),
  keywords: text('keywords').array().notNull().default(sql`'{}'::text[]`),
  description: text('description'),
  hours: jsonb('hours').$type<StoredHours>().notNull(),
  contact: jsonb('contact').$type<StoredContact | null>(),
  active: boolean('active').notNull().default(true),
  suppressed: boolean('suppressed').notNull().default(false),
  boost: real('boost').notNull().default(1),
  createdBy: id('created_by').notNull().references(() => partners.id),
  claimedBy: id('claimed_by').references(() => partners.id),
  /** Grows on every change of the listing or of what its index document shows; the external
   * version of the OpenSearch document, so a late or repeated index job can never win. */
  version: id('version').notNull().default(1),
  createdAt: createdAt(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  /** Soft delete: the row keeps its version so the indexer can delete with that version. */
  deletedAt: timestamp('deleted_at', { withTimezone: true }),
  // Opening hours beyond the week (docs/contract.md §18). Existing rows need no backfill: no
  // special days, not closed, and a null zone that reads as the country's default
  // (COUNTRY_TIME_ZONES in src/platform/config.ts), so a changed default reaches every listing that named none.
  specialHours: jsonb('special_hours').$type<StoredSpecialDay[]>().notNull().default(sql`'[]'::jsonb`),
  temporarilyClosed: jsonb('temporarily_closed').$type<StoredClosure | null>(),
  timeZone: text('time_zone'),
}, (t) => [index('listings_country_idx').on(t.country, t.id)]);

const listingId = () => id('listing_id').notNull().references(() => listings.id, { onDelete: 'cascade' });

export const listingEmails = pgTable('listing_emails', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  listingId: listingId(),
  position: integer('position').notNull(),
  address: text('address').notNull(),
}, (t) => [index('listing_emails_listing_idx').on(t.listingId)]);

export const listingPhones = pgTable('listing_phones', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  listingId: listingId(),
  position: integer('position').notNull(),
  type: text('type').notNull(),
  number: text('number').notNull(),
}, (t) => [index('listing_phones_listing_idx').on(t.listingId)]);

export const listingLinks = pgTable('listing_links', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  listingId: listingId(),
  position: integer('position').notNull(),
  type: text('type').notNull(),
  url: text('url').notNull(),
}, (t) => [index('listing_links_listing_idx').on(t.listingId)]);

export const listingCategories = pgTable('listing_categories', {
  listingId: listingId(),
  position: integer('position').notNull(),
  country: text('country').notNull(),
  categoryId: text('category_id').notNull(),
}, (t) => [primaryKey({ columns: [t.listingId, t.position] })]);

/** A partner's own id for a listing (docs/contract.md §10); unique per partner. */
export const mappings = pgTable('mappings', {
  partnerId: id('partner_id').notNull().references(() => partners.id),
  sourceId: text('source_id').notNull(),
  listingId: listingId(),
  country: text('country').notNull(),
  /**
   * The fingerprint of the import line that last created, updated or matched the listing through
   * this mapping, and the version it left (src/imports/import-fingerprint.ts): while the listing
   * holds that version, the same line again is unchanged without reading the listing.
   */
  importFingerprint: text('import_fingerprint'),
  importVersion: id('import_version'),
}, (t) => [
  primaryKey({ columns: [t.partnerId, t.sourceId] }),
  index('mappings_listing_idx').on(t.listingId),
]);

/** A 64-bit transaction id (PostgreSQL 13+); read as text, compared only inside PostgreSQL. */
const xid8 = customType<{ data: string; driverData: string }>({ dataType: () => 'xid8' });

/**
 * Index events, written in the same transaction as the change they describe. A row is done when
 * OpenSearch accepted the listing at `version` or newer; until then the relay keeps re-enqueueing it.
 */
export const outbox = pgTable('outbox', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  listingId: id('listing_id').notNull(),
  country: text('country').notNull(),
  version: id('version').notNull(),
  createdAt: createdAt(),
  processedAt: timestamp('processed_at', { withTimezone: true }),
  /** The writing transaction: a reindex compares it with its start snapshot (indexer/reindex.ts). */
  txid: xid8('txid').notNull().default(sql`pg_current_xact_id()`),
}, (t) => [
  index('outbox_pending_idx').on(t.createdAt).where(sql`processed_at is null`),
  // Pending events of a listing (markEventsProcessedUpTo). Partial, so that a processed event
  // leaves it: the planner otherwise combined the listing index with outbox_pending_idx, whose
  // entries of processed events stay until a vacuum, and the mark read every one of them, a cost
  // that grew with the table between vacuums (docs/performance.md).
  index('outbox_pending_listing_idx').on(t.listingId).where(sql`processed_at is null`),
  index('outbox_txid_idx').on(t.txid),
]);

/**
 * The change feed (docs/contract.md §14): one row per write that changed something a partner can
 * see, written in the writing transaction. `seq` is the feed position. It is assigned only after
 * commit, by one sequencer at a time (src/changes/), so positions grow in commit order and a
 * reader that follows `seq` never skips a row that committed late.
 */
export const listingChanges = pgTable('listing_changes', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  /** Null until the sequencer has seen the row committed. */
  seq: id('seq'),
  listingId: id('listing_id').notNull(),
  country: text('country').notNull(),
  kind: text('kind').$type<ChangeKind>().notNull(),
  /** The listing's version after the change (offers and partner reviews leave it unchanged). */
  version: id('version').notNull(),
  at: timestamp('at', { withTimezone: true }).notNull().default(sql`clock_timestamp()`),
  /** Who claimed the listing after the change (for `unclaimed`: before it); webhook scope `claimed`. */
  claimedBy: id('claimed_by'),
  /** Set for a partner's own review: only that partner (and admins) may see the change. */
  visibleTo: id('visible_to'),
  /** The names of the Listing fields the change touched (docs/contract.md §21): feed entries and webhook payloads show them. */
  fields: text('fields').array().notNull().default(sql`'{}'::text[]`),
}, (t) => [
  uniqueIndex('listing_changes_seq_idx').on(t.seq),
  // A country's feed page: GET /:country/changes reads one country's changes in position order.
  index('listing_changes_country_seq_idx').on(t.country, t.seq),
  index('listing_changes_unsequenced_idx').on(t.id).where(sql`seq is null`),
  index('listing_changes_at_idx').on(t.at),
]);

/**
 * A listing's history (docs/contract.md §21): one row per version, written by the statement that
 * records the version's change, in the writing transaction. `before` holds the value each Listing
 * field the version changed had before it, as GET showed it; the value after is the next version's
 * `before`, or the current listing's. A past version is therefore rebuilt from the current listing
 * backwards (src/listings/listing-history.ts): purging the oldest rows (HISTORY_RETENTION_DAYS)
 * leaves every newer version readable, and a version stores each changed value once. No foreign
 * key: listings are never removed (a delete is soft), and its check would cost every write.
 */
export const listingHistory = pgTable('listing_history', {
  listingId: id('listing_id').notNull(),
  version: id('version').notNull(),
  kind: text('kind').$type<ChangeKind>().notNull(),
  at: timestamp('at', { withTimezone: true }).notNull().default(sql`clock_timestamp()`),
  /** The partner whose key made the change; null for the service's own writes. */
  actorId: id('actor_id'),
  channel: text('channel').$type<WriteChannel>().notNull(),
  /** Null for `created`: the listing had no fields before. */
  before: jsonb('before').$type<Record<string, unknown>>(),
}, (t) => [
  primaryKey({ columns: [t.listingId, t.version] }),
  // Retention deletes by age. Rows arrive in time order, so a BRIN index finds the old ones at
  // almost no cost to each write, where a B-tree would add an insert to every one.
  index('listing_history_at_idx').using('brin', t.at),
]);

/**
 * Per country, the highest feed position purged (docs/contract.md §14): a cursor below it may have
 * missed changes of that country (410 gone); one at or above it missed none, however long the
 * country was quiet while other countries' changes were purged.
 */
export const changeFeedPurges = pgTable('change_feed_purges', {
  country: text('country').primaryKey(),
  through: id('through').notNull(),
});

/** At most one offer a listing (docs/contract.md §7); the index document only says whether there is one (`has_offer`). */
export const offers = pgTable('offers', {
  listingId: id('listing_id').primaryKey().references(() => listings.id, { onDelete: 'cascade' }),
  message: text('message').notNull(),
  url: text('url').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** How long an Idempotency-Key is remembered (docs/contract.md §13). */
export const IDEMPOTENCY_TTL_MS = 24 * 3600 * 1000;

/**
 * Remembered POST responses per partner and Idempotency-Key (docs/contract.md §13), shared by
 * every API instance. A row without a status is a request still in flight, held by a lease
 * (src/idempotency/idempotency-dal.ts).
 */
export const idempotencyKeys = pgTable('idempotency_keys', {
  partnerId: id('partner_id').notNull().references(() => partners.id),
  key: text('key').notNull(),
  requestHash: text('request_hash').notNull(),
  statusCode: integer('status_code'),
  response: jsonb('response'),
  createdAt: createdAt(),
  /** The holder renews this while it runs; once it has passed, the holder is presumed dead. */
  lockedUntil: timestamp('locked_until', { withTimezone: true }).notNull().defaultNow(),
  /** Grows with every take-over: only the current attempt may renew, complete or release the key. */
  attempt: integer('attempt').notNull().default(1),
}, (t) => [primaryKey({ columns: [t.partnerId, t.key] }), index('idempotency_keys_created_idx').on(t.createdAt)]);

/** Images of a listing; the bytes live in the media store under a content-addressed key. */
export const images = pgTable('images', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  listingId: listingId(),
  type: text('type').notNull(),
  caption: text('caption').notNull(),
  /** sha256 of the bytes: equal files share one stored object. */
  key: text('key').notNull(),
  ext: text('ext').notNull(),
  contentType: text('content_type').notNull(),
  width: integer('width').notNull(),
  height: integer('height').notNull(),
  size: integer('size').notNull(),
  createdAt: createdAt(),
}, (t) => [index('images_listing_idx').on(t.listingId), index('images_key_idx').on(t.key)]);

/**
 * Stored files that may have no image left: written by an upload (whose transaction may still
 * be open or may fail) or no longer referred to. `since` is the latest such event; housekeeping
 * removes the file once it is older than the grace period and no image of a live listing refers
 * to it (src/media/media-cleanup.ts).
 */
export const mediaCleanup = pgTable('media_cleanup', {
  key: text('key').notNull(),
  ext: text('ext').notNull(),
  since: timestamp('since', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [primaryKey({ columns: [t.key, t.ext] }), index('media_cleanup_since_idx').on(t.since)]);

/** Reviews: `partnerId` is who wrote it; `origin` is `website` for reviews posted with an admin key. */
export const reviews = pgTable('reviews', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  listingId: listingId(),
  partnerId: id('partner_id').notNull().references(() => partners.id),
  origin: text('origin', { enum: ['website', 'partner'] }).notNull(),
  sourceId: text('source_id').notNull(),
  reviewer: text('reviewer').notNull(),
  reviewed: text('reviewed').notNull(),
  title: text('title').notNull(),
  text: text('text').notNull(),
  rating: integer('rating').notNull(),
  /** As the partner sent it (keeps its UTC offset); `reviewedAt` is the same instant, for ordering. */
  dateTime: text('date_time').notNull(),
  reviewedAt: timestamp('reviewed_at', { withTimezone: true }).notNull(),
  createdAt: createdAt(),
}, (t) => [
  uniqueIndex('reviews_source_idx').on(t.listingId, t.partnerId, t.sourceId),
  index('reviews_listing_idx').on(t.listingId, t.reviewedAt),
]);

export * from './webhook-tables.js';
export * from './import-tables.js';

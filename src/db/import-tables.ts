// The bulk import tables (docs/contract.md §19), re-exported by schema.ts: drizzle-kit and the DAL
// modules see one schema. The references to `partners` are functions, read after both modules loaded.
import { sql } from 'drizzle-orm';
import { bigserial, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, id } from './columns.js';
import { partners } from './schema.js';

/**
 * Bulk imports (docs/contract.md §19). A job is `receiving` while its body streams in: invisible
 * to every read, and removed by the indexer's sweep when its upload died. `processed` and the
 * outcome counters move in the transaction that applies the lines they count.
 */
export const imports = pgTable(
  'imports',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    partnerId: id('partner_id')
      .notNull()
      .references(() => partners.id),
    country: text('country').notNull(),
    mode: text('mode', { enum: ['upsert', 'replace'] }).notNull(),
    status: text('status', { enum: ['receiving', 'queued', 'running', 'done', 'cancelled', 'failed'] })
      .notNull()
      .default('receiving'),
    lines: integer('lines').notNull().default(0),
    processed: integer('processed').notNull().default(0),
    created: integer('created').notNull().default(0),
    updated: integer('updated').notNull().default(0),
    unchanged: integer('unchanged').notNull().default(0),
    deleted: integer('deleted').notNull().default(0),
    failed: integer('failed').notNull().default(0),
    error: text('error'),
    /** Idempotency-Key and the SHA-256 of the request it came with (docs/contract.md §13). */
    idempotencyKey: text('idempotency_key'),
    requestHash: text('request_hash'),
    createdAt: createdAt(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    index('imports_partner_idx').on(t.partnerId, t.id),
    index('imports_unfinished_idx').on(t.partnerId, t.id).where(sql`status in ('queued', 'running')`),
    uniqueIndex('imports_idempotency_key_idx').on(t.partnerId, t.idempotencyKey),
  ],
);

/**
 * One non-empty line of a job's body, and once applied its outcome, written in the transaction
 * that applied it: a resumed job starts at the first line without one. `content` is null for a
 * line too long to keep (it fails as an item).
 */
export const importLines = pgTable(
  'import_lines',
  {
    importId: id('import_id')
      .notNull()
      .references(() => imports.id, { onDelete: 'cascade' }),
    line: integer('line').notNull(),
    content: text('content'),
    status: text('status', { enum: ['created', 'updated', 'unchanged', 'failed'] }),
    sourceId: text('source_id'),
    listingId: id('listing_id'),
    version: id('version'),
    error: jsonb('error').$type<{ type: string; message: string; details: string[] }>(),
  },
  (t) => [primaryKey({ columns: [t.importId, t.line] }), index('import_lines_pending_idx').on(t.importId, t.line).where(sql`status is null`)],
);

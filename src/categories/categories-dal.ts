// Every SQL statement on categories: PostgreSQL holds the taxonomy a listing is validated against.
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.js';
import { categories } from '../db/schema.js';
import type { CategoryRow } from './categories-index.js';

/** Which of `ids` are categories of the country. */
export async function knownCategoryIds(db: DbOrTx, country: string, ids: string[]): Promise<Set<string>> {
  const rows = await db
    .select({ id: categories.id })
    .from(categories)
    .where(and(eq(categories.country, country), inArray(categories.id, ids)));
  return new Set(rows.map((r) => r.id));
}

/**
 * Fresh planner statistics of the taxonomy, loaded at once. A batch of creates checks each
 * listing's categories by key (src/listings/batch-create-dal.ts); without statistics the planner
 * took a country for a handful of rows and scanned all of its categories for every listing:
 * about half of a batch's statement time. Autovacuum analyses the table later, where it runs at all.
 */
export async function analyzeCategories(db: DbOrTx): Promise<void> {
  await db.execute(sql`analyze ${categories}`);
}

/** Inserts the categories, renaming those that exist. */
export async function upsertCategories(db: DbOrTx, rows: CategoryRow[]): Promise<void> {
  await db
    .insert(categories)
    .values(rows)
    .onConflictDoUpdate({ target: [categories.country, categories.id], set: { name: sql`excluded.name` } });
}

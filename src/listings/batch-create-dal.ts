// A batch of creates in one statement, for a bulk import (docs/contract.md §19): what
// insertCreatedListing (listing-writes-dal.ts) writes for one listing, written for many in one
// round trip. A batch of creates was one round trip a listing, and the round trips, not the rows,
// were most of an import's time (docs/performance.md).
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.js';
import { preparedStatement } from '../db/prepared-statement.js';
import { createdChangeInserts } from '../changes/changes-dal.js';
import { categories, listingCategories, listingEmails, listingLinks, listingPhones, listings, mappings } from '../db/schema.js';
import type { WriteChannel } from '../changes/write-channels.js';
import { LISTING_FIELDS } from './listing-diff.js';
import { CREATED_COLUMNS, type CreatedListing, type SubObjects } from './listing-writes-dal.js';

/** One listing of a batch: its columns, its sub-objects, and the caller's source_id for it (null without one). */
export interface BatchedCreate {
  values: CreatedListing;
  subs: SubObjects;
  sourceId: string | null;
}

/** The first version of a listing a batch created. */
export interface CreatedVersion {
  id: number;
  version: number;
}

/** The JSON object of one listing: its columns under their names in the table, `i` its place in the batch. */
function batchRow({ values, subs, sourceId }: BatchedCreate, i: number): Record<string, unknown> {
  const row: Record<string, unknown> = { i, source_id: sourceId, category_ids: subs.categoryIds, emails: subs.emails, phones: subs.phones, links: subs.links };
  for (const column of CREATED_COLUMNS) row[listings[column].name] = values[column];
  return row;
}

// The batch travels as one JSON array, read back into rows by jsonb_to_recordset: a fixed number of
// parameters for any number of listings, each column typed as its table declares it.
const insertCreatedListingsStatement = preparedStatement<{ rows: string; channel: WriteChannel }, { i: number; id: string; version: string }>('insert_created_listings', () => {
  const columns = CREATED_COLUMNS.map((column) => sql.identifier(listings[column].name));
  const declared = sql.join(
    CREATED_COLUMNS.map((column) => sql`${sql.identifier(listings[column].name)} ${sql.raw(listings[column].getSQLType())}`),
    sql`, `,
  );
  const listed = sql.join(columns, sql`, `);
  return sql`
    with r as (
      select * from jsonb_to_recordset(${sql.placeholder('rows')}::jsonb)
        as r(i integer, ${declared}, source_id text, category_ids text[], emails jsonb, phones jsonb, links jsonb)),
    -- The listings insertCreatedListing would add: every category known (a batched input names
    -- each once, so the count of known ones says it; one look-up of the key for all of them), the
    -- source_id not yet mapped. Each takes its id here, so that its sub-objects can name it; once,
    -- as the CTE is materialised (nextval is volatile).
    accepted as (
      select r.*, nextval(pg_get_serial_sequence('listings', 'id')) as id
      from (select * from r
        where (select count(*) from ${categories} c where c.country = r.country and c.id = any(r.category_ids)) = cardinality(r.category_ids)
          and (r.source_id is null or not exists (
            select 1 from ${mappings} m where m.partner_id = r.created_by and m.source_id = r.source_id))
        order by r.i) r),
    -- Every accepted row is inserted, or the statement fails: the sub-objects and the answer read
    -- accepted itself. Joined back to the insert's rows, each of the planner's estimates of one
    -- row made a loop of every row over every row.
    l as (insert into ${listings} (id, ${listed}) select id, ${listed} from accepted returning *),
    inserted_emails as (insert into ${listingEmails} (listing_id, position, address)
      select b.id, e.n - 1, e.v->>'address' from accepted b, jsonb_array_elements(b.emails) with ordinality as e(v, n)),
    inserted_phones as (insert into ${listingPhones} (listing_id, position, type, number)
      select b.id, p.n - 1, p.v->>'type', p.v->>'number' from accepted b, jsonb_array_elements(b.phones) with ordinality as p(v, n)),
    inserted_links as (insert into ${listingLinks} (listing_id, position, type, url)
      select b.id, k.n - 1, k.v->>'type', k.v->>'url' from accepted b, jsonb_array_elements(b.links) with ordinality as k(v, n)),
    inserted_categories as (insert into ${listingCategories} (listing_id, position, country, category_id)
      select b.id, c.n - 1, b.country, c.category_id from accepted b, unnest(b.category_ids) with ordinality as c(category_id, n)),
    inserted_mappings as (insert into ${mappings} (partner_id, source_id, listing_id, country)
      select created_by, source_id, id, country from accepted where source_id is not null),
    ${createdChangeInserts(LISTING_FIELDS)}
    select i, id, version from accepted`;
});

/**
 * Creates the listings of `batch` in one statement, as insertCreatedListing creates one: each at
 * its first version with its sub-objects, its source_id mapping, its `created` change, outbox event
 * and history row. For each item, its id and version, or undefined where it added nothing (a
 * category unknown in the listing's country, or a source_id already mapped): the caller finds out
 * which with a create of its own. A source_id mapped by a concurrent create while this one runs
 * fails the statement as a whole, on the mapping's key.
 */
export async function insertCreatedListings(db: DbOrTx, batch: readonly BatchedCreate[], channel: WriteChannel): Promise<(CreatedVersion | undefined)[]> {
  if (batch.length === 0) return [];
  const rows = await insertCreatedListingsStatement(db, { rows: JSON.stringify(batch.map(batchRow)), channel });
  const created: (CreatedVersion | undefined)[] = batch.map(() => undefined);
  for (const row of rows) created[row.i] = { id: Number(row.id), version: Number(row.version) };
  return created;
}

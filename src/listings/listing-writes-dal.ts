// The statements that write a listing: a create in one statement, an update in two, the version
// bump of every other workflow, and the row lock every workflow starts with. Each is a named
// prepared statement whose SQL is built once (src/db/prepared-statement.ts).
import { and, eq, getTableColumns, isNull, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.js';
import { decodeRow } from '../db/decode-row.js';
import { preparedStatement } from '../db/prepared-statement.js';
import { createdChangeInserts } from '../changes/changes-dal.js';
import { categories, listingCategories, listingEmails, listingLinks, listingPhones, listings, mappings } from '../db/schema.js';
import type { WriteChannel } from '../changes/write-channels.js';
import { listingJson, listsFrom, toListingForView, type ListingForIndex, type ListingForView, type ListingJson, type ListingRow, type ListSources, type NewListing } from './listing-records.js';
import { LISTING_FIELDS, type SubObjectList } from './listing-diff.js';

// Prepared (src/db/prepared-statement.ts): every workflow of a listing starts with it.
const lockLiveListingStatement = preparedStatement<{ id: number; country: string }>('lock_live_listing', (db) =>
  db
    .select()
    .from(listings)
    .where(and(eq(listings.id, sql.placeholder('id')), eq(listings.country, sql.placeholder('country')), isNull(listings.deletedAt)))
    .for('update'),
);

/** Locks the live (not deleted) listing `id` of `country` for a change; undefined when there is none. */
export async function lockLiveListing(tx: DbOrTx, country: string, id: number): Promise<ListingRow | undefined> {
  const [row] = await lockLiveListingStatement(tx, { id, country });
  return row && decodeRow(listings, row);
}

// Written out: a select builder names its result columns only as drizzle maps them, and a prepared statement returns them raw.
const lockLiveRecordStatement = preparedStatement<{ id: number; country: string }, { record: ListingJson }>(
  'lock_live_listing_record',
  () => sql`
  select ${listingJson} as record from ${listings}
  where ${listings.id} = ${sql.placeholder('id')}::bigint and ${listings.country} = ${sql.placeholder('country')}::text and ${listings.deletedAt} is null
  for update`,
);

/**
 * lockLiveListing for a write of the listing's content (PUT, PATCH, restore): the same lock, and
 * the listing as a read by id finds it (its lists and images) in the same round trip. The write
 * compares it with what it would store, to find what it changes (src/listings/listing-diff.ts),
 * before it writes anything.
 */
export async function lockLiveListingRecord(tx: DbOrTx, country: string, id: number): Promise<ListingForView | undefined> {
  const [row] = await lockLiveRecordStatement(tx, { id, country });
  return row && toListingForView(row.record);
}

/**
 * The emails, phones, links and categories of one listing, in their order (the order is their
 * position). An id is kept on update (docs/listings-api.md); without one the row gets a new id.
 */
export interface SubObjects {
  emails: { id?: number | undefined; address: string }[];
  phones: { id?: number | undefined; type: string; number: string }[];
  links: { id?: number | undefined; type: string; url: string }[];
  categoryIds: string[];
}

/**
 * The sub-objects as one array per column: the parameters of subObjectInserts, whose unnest turns
 * them back into rows, so any number of rows travels in a fixed number of parameters. A new row
 * has a null id.
 */
interface SubObjectColumns {
  emailIds: (number | null)[];
  emailAddresses: string[];
  phoneIds: (number | null)[];
  phoneTypes: string[];
  phoneNumbers: string[];
  linkIds: (number | null)[];
  linkTypes: string[];
  linkUrls: string[];
  categoryIds: string[];
}

function subObjectColumns(subs: SubObjects): SubObjectColumns {
  const idsOf = (rows: { id?: number | undefined }[]) => rows.map((r) => r.id ?? null);
  return {
    emailIds: idsOf(subs.emails),
    emailAddresses: subs.emails.map((e) => e.address),
    phoneIds: idsOf(subs.phones),
    phoneTypes: subs.phones.map((p) => p.type),
    phoneNumbers: subs.phones.map((p) => p.number),
    linkIds: idsOf(subs.links),
    linkTypes: subs.links.map((k) => k.type),
    linkUrls: subs.links.map((k) => k.url),
    categoryIds: subs.categoryIds,
  };
}

/** The SQL array type of each column array. */
const COLUMN_TYPES: Record<keyof SubObjectColumns, 'bigint' | 'text'> = {
  emailIds: 'bigint',
  emailAddresses: 'text',
  phoneIds: 'bigint',
  phoneTypes: 'text',
  phoneNumbers: 'text',
  linkIds: 'bigint',
  linkTypes: 'text',
  linkUrls: 'text',
  categoryIds: 'text',
};
/** Each column array as the placeholder of its name, cast to its array type (the writes are prepared statements). */
const columnPlaceholders = (column: keyof SubObjectColumns) => sql`${sql.placeholder(column)}::${sql.raw(COLUMN_TYPES[column])}[]`;

/**
 * The data-modifying CTEs that insert the sub-objects for the listing whose id the CTE `l` returns,
 * each column array given by its placeholder and the country by the placeholder `country`. Each list is one
 * `insert … select … from unnest(…)`, so the whole write is one statement (one round trip). Only
 * categories of the country are inserted: the callers refuse a listing with any other first.
 * Each returns the rows it inserted, which a create and an update read for their answer (INSERTED_LISTS): their
 * statement's own query cannot find them in the tables, as it reads the snapshot taken before it ran.
 */
function subObjectInserts(): SQL {
  const param = columnPlaceholders;
  const country = sql`${sql.placeholder('country')}`;
  // A kept id is inserted as is; a new row takes its id from the table's own sequence.
  const newId = (table: string) => sql.raw(`nextval(pg_get_serial_sequence('${table}', 'id'))`);
  return sql`
    inserted_emails as (insert into ${listingEmails} (id, listing_id, position, address)
      select coalesce(s.id, ${newId('listing_emails')}), l.id, s.n - 1, s.address
      from l, unnest(${param('emailIds')}, ${param('emailAddresses')}) with ordinality as s(id, address, n)
      returning *),
    inserted_phones as (insert into ${listingPhones} (id, listing_id, position, type, number)
      select coalesce(s.id, ${newId('listing_phones')}), l.id, s.n - 1, s.type, s.number
      from l, unnest(${param('phoneIds')}, ${param('phoneTypes')}, ${param('phoneNumbers')}) with ordinality as s(id, type, number, n)
      returning *),
    inserted_links as (insert into ${listingLinks} (id, listing_id, position, type, url)
      select coalesce(s.id, ${newId('listing_links')}), l.id, s.n - 1, s.type, s.url
      from l, unnest(${param('linkIds')}, ${param('linkTypes')}, ${param('linkUrls')}) with ordinality as s(id, type, url, n)
      returning *),
    inserted_categories as (insert into ${listingCategories} (listing_id, position, country, category_id)
      select l.id, s.n - 1, c.country, c.id
      from l, unnest(${param('categoryIds')}) with ordinality as s(category_id, n)
        join ${categories} c on c.country = ${country}::text and c.id = s.category_id
      returning *)`;
}

/** The rows the sub-object inserts of subObjectInserts return, as the sources of a record's lists. */
const INSERTED_LISTS: ListSources = {
  emails: sql`inserted_emails`,
  phones: sql`inserted_phones`,
  links: sql`inserted_links`,
  categories: sql`inserted_categories`,
};

/**
 * The select that ends a statement writing one listing (a create, an update): the listing row the
 * CTE `l` returns and the lists the statement inserted. The lists cannot be read from their
 * tables: the statement's own query reads the snapshot taken before it ran. The images are not
 * read: a new listing has none, and an update holds the lock that image writes take, so the
 * images it read with its lock are the listing's (replaceListing adds them). The
 * listing's columns are named, not `l.*`: a prepared statement's result must keep its shape, and a
 * column added by a migration while the API runs would change what `*` means (PostgreSQL then
 * refuses the statement).
 */
function selectWrittenRecord(): SQL {
  const lists = listsFrom(INSERTED_LISTS);
  const listingColumns = sql.join(
    Object.values(getTableColumns(listings)).map((column) => sql`l.${sql.identifier(column.name)}`),
    sql`, `,
  );
  return sql`
    select ${listingColumns}, ${lists.emails} as emails, ${lists.phones} as phones, ${lists.links} as links,
      ${lists.categories} as categories
    from l`;
}

/** A row of selectWrittenRecord: the listing row as stored (snake_case columns, raw values) and the lists the statement inserted. */
type WrittenRecordRow = Record<string, unknown> & Pick<ListingForIndex, 'emails' | 'phones' | 'links' | 'categories'>;

/** A written record, with no images (selectWrittenRecord reads none). */
function decodeWrittenRecord({ emails, phones, links, categories: categoryList, ...listing }: WrittenRecordRow): ListingForView {
  return toListingForView({ listing, emails, phones, links, categories: categoryList, images: [] });
}

/** The columns a partner sets with a listing's content, on create and on update (the same set of a listing's fields). */
const CONTENT_COLUMNS = [
  'name',
  'address',
  'zip',
  'place',
  'latitude',
  'longitude',
  'keywords',
  'description',
  'hours',
  'specialHours',
  'temporarilyClosed',
  'timeZone',
  'contact',
  'active',
] as const satisfies readonly (keyof NewListing)[];

/** A listing's content as a write sets it. */
export type ListingContent = { [K in (typeof CONTENT_COLUMNS)[number]]: Exclude<NewListing[K], undefined> };

/** Each column of `columns` bound to the placeholder of its name and its column's encoder, as drizzle's insert binds a value (a jsonb column's JSON text). */
const columnValuePlaceholders = (columns: readonly (keyof NewListing)[]) =>
  columns.map((column) => ({ name: sql.identifier(listings[column].name), value: sql.param(sql.placeholder(column), listings[column]) }));

/** The columns a create sets; the others (id, suppressed, boost, the timestamps) take their defaults. */
export const CREATED_COLUMNS = [...CONTENT_COLUMNS, 'country', 'createdBy', 'claimedBy', 'version'] as const satisfies readonly (keyof NewListing)[];

export type CreatedListing = { [K in (typeof CREATED_COLUMNS)[number]]: Exclude<NewListing[K], undefined> };

/** What a create writes: the listing's columns, its sub-objects, the caller's source_id for it (null without one), and the door it came through. */
type CreatedListingValues = CreatedListing & SubObjectColumns & { sourceId: string | null; channel: WriteChannel };

// The whole create as one prepared statement: see insertCreatedListing.
const insertCreatedListingStatement = preparedStatement<CreatedListingValues, WrittenRecordRow>('insert_created_listing', () => {
  const created = columnValuePlaceholders(CREATED_COLUMNS);
  const columns = sql.join(
    created.map((c) => c.name),
    sql`, `,
  );
  const values = sql.join(
    created.map((c) => c.value),
    sql`, `,
  );
  const country = sql`${sql.placeholder('country')}`;
  const sourceId = sql`${sql.placeholder('sourceId')}::text`;
  const categoryIds = columnPlaceholders('categoryIds');
  return sql`
    with l as (
      insert into ${listings} (${columns})
      select ${values}
      where (select count(*) from unnest(${categoryIds}) as s(id) join ${categories} c on c.country = ${country}::text and c.id = s.id) = cardinality(${categoryIds})
        and (${sourceId} is null or not exists (
          select 1 from ${mappings} m where m.partner_id = ${sql.placeholder('createdBy')} and m.source_id = ${sourceId}))
      returning *),
    ${subObjectInserts()},
    inserted_mapping as (insert into ${mappings} (partner_id, source_id, listing_id, country)
      select created_by, ${sourceId}, id, country from l where ${sourceId} is not null),
    ${createdChangeInserts(LISTING_FIELDS)}
    ${selectWrittenRecord()}`;
});

/**
 * The whole create in one statement, which commits on its own (no BEGIN and COMMIT: one round trip
 * where a transaction took four, and a fifth read the listing back): the listing at its first
 * version, its sub-objects, the caller's source_id mapping, and its `created` change with the
 * outbox event and the first row of its history (createdChangeInserts). It returns the listing as stored, built from the rows it
 * inserted (selectWrittenRecord). It inserts nothing, and returns
 * undefined, when a category id is not a category of the listing's country or the source_id
 * already maps to one of the caller's listings: the caller then finds out which, with no lookup on
 * the way of a create that succeeds. A concurrent create that takes the same source_id first makes
 * this one fail on the mapping's key, as a whole.
 */
export async function insertCreatedListing(db: DbOrTx, values: CreatedListing, subs: SubObjects, sourceId: string | null, channel: WriteChannel): Promise<ListingForView | undefined> {
  const [created] = await insertCreatedListingStatement(db, { ...values, ...subObjectColumns(subs), sourceId, channel });
  return created && decodeWrittenRecord(created);
}

/** The columns a write may set as it moves a listing to its next version: a delete, a claim, a suppression. */
type NextVersionColumn = 'deletedAt' | 'claimedBy' | 'suppressed';

/**
 * One prepared statement per set of columns a version bump sets, named after the set and built the
 * first time that set is written. The callers use four: none, or one of NextVersionColumn.
 */
const nextVersionStatements = new Map<string, (db: DbOrTx, values: Record<string, unknown>) => Promise<{ version: number }[]>>();

function nextVersionStatement(columns: readonly NextVersionColumn[]) {
  const name = ['listing_next_version', ...columns.map((c) => listings[c].name)].join('_');
  let statement = nextVersionStatements.get(name);
  if (!statement) {
    statement = preparedStatement<Record<string, unknown>, { version: number }>(name, () => {
      const assignments = columnValuePlaceholders(columns).map((c) => sql`${c.name} = ${c.value}, `);
      return sql`
        update ${listings} set ${sql.join(assignments)}version = version + 1, updated_at = ${sql.param(sql.placeholder('updatedAt'), listings.updatedAt)}
        where id = ${sql.placeholder('id')}::bigint returning version`;
    });
    nextVersionStatements.set(name, statement);
  }
  return statement;
}

/**
 * Sets columns of listing `id` (none: only the version moves) and moves it to its next version, in
 * one prepared statement; returns the new version. A workflow that writes the row anyway reports
 * it to changeListing as `movedTo`, which then moves the version of the others with no values.
 */
export async function updateListingToNextVersion(tx: DbOrTx, id: number, values: Partial<Pick<NewListing, NextVersionColumn>> = {}): Promise<number> {
  const columns = (Object.keys(values) as NextVersionColumn[]).sort();
  const [updated] = await nextVersionStatement(columns)(tx, { ...values, id, updatedAt: new Date() });
  return updated!.version;
}

/** Per list, whether an update replaces its rows: a kept list (keptLists, listing-diff.ts) is left as stored. */
type ReplacedLists = { replaceEmails: boolean; replacePhones: boolean; replaceLinks: boolean; replaceCategories: boolean };

const replacedLists = (kept: ReadonlySet<SubObjectList>): ReplacedLists => ({
  replaceEmails: !kept.has('emails'),
  replacePhones: !kept.has('phones'),
  replaceLinks: !kept.has('links'),
  replaceCategories: !kept.has('categories'),
});

const clearSubObjectsStatement = preparedStatement<{ id: number; country: string; categoryIds: string[] } & ReplacedLists, { id: string }>('clear_listing_sub_objects', () => {
  const id = sql`${sql.placeholder('id')}::bigint`;
  const replace = (list: keyof ReplacedLists) => sql`${sql.placeholder(list)}::boolean`;
  return sql`
      with deleted_emails as (delete from ${listingEmails} where listing_id = ${id} and ${replace('replaceEmails')}),
        deleted_phones as (delete from ${listingPhones} where listing_id = ${id} and ${replace('replacePhones')}),
        deleted_links as (delete from ${listingLinks} where listing_id = ${id} and ${replace('replaceLinks')}),
        deleted_categories as (delete from ${listingCategories} where listing_id = ${id} and ${replace('replaceCategories')})
      select c.id from ${categories} c where c.country = ${sql.placeholder('country')}::text and c.id = any(${columnPlaceholders('categoryIds')})`;
});

/**
 * The first statement of an update (replaceListing is the second): deletes the rows of the lists of
 * listing `id` the update replaces (all but `kept`; the update read them with its lock,
 * lockLiveListingRecord) and returns which of `categoryIds` are categories of `country`, in one
 * round trip. An update that validation then refuses rolls back, its sub-objects with it.
 */
export async function clearSubObjects(tx: DbOrTx, id: number, country: string, categoryIds: string[], kept: ReadonlySet<SubObjectList>): Promise<{ knownCategoryIds: Set<string> }> {
  const rows = await clearSubObjectsStatement(tx, { id, country, categoryIds, ...replacedLists(kept) });
  return { knownCategoryIds: new Set(rows.map((row) => row.id)) };
}

/** What an update writes: the listing's content, its sub-objects, and the time it moves to its next version. */
type ReplacedListingValues = ListingContent & SubObjectColumns & { id: number; country: string; updatedAt: Date };

const replaceListingStatement = preparedStatement<ReplacedListingValues, WrittenRecordRow>('replace_listing', () => {
  const assignments = sql.join(
    columnValuePlaceholders(CONTENT_COLUMNS).map((c) => sql`${c.name} = ${c.value}`),
    sql`, `,
  );
  return sql`
    with l as (
      update ${listings} set ${assignments}, version = version + 1, updated_at = ${sql.param(sql.placeholder('updatedAt'), listings.updatedAt)}
      where id = ${sql.placeholder('id')} returning *),
    ${subObjectInserts()}
    ${selectWrittenRecord()}`;
});

/**
 * The second statement of an update, after clearSubObjects: sets the content of the locked listing
 * `stored`, moves it to its next version and inserts the lists of `subs` it replaces (kept ids
 * kept; the `kept` lists are left as stored), in one round trip. Returns the listing as stored:
 * the row and the lists it wrote, the kept lists and the images as the lock read them. Not one
 * statement with the deletes: the sub-statements of one statement run in no defined order, and a
 * kept id (or a position) inserted before its old row is deleted would violate its unique key.
 */
export async function replaceListing(tx: DbOrTx, stored: ListingForView, content: ListingContent, subs: SubObjects, kept: ReadonlySet<SubObjectList>): Promise<ListingForView> {
  const { id, country } = stored.row;
  const inserted: SubObjects = {
    emails: kept.has('emails') ? [] : subs.emails,
    phones: kept.has('phones') ? [] : subs.phones,
    links: kept.has('links') ? [] : subs.links,
    categoryIds: kept.has('categories') ? [] : subs.categoryIds,
  };
  const [replaced] = await replaceListingStatement(tx, { ...content, ...subObjectColumns(inserted), id, country, updatedAt: new Date() });
  const record = decodeWrittenRecord(replaced!);
  return {
    ...record,
    emails: kept.has('emails') ? stored.emails : record.emails,
    phones: kept.has('phones') ? stored.phones : record.phones,
    links: kept.has('links') ? stored.links : record.links,
    categories: kept.has('categories') ? stored.categories : record.categories,
    images: stored.images,
  };
}

// A listing as its reads return it: the row, its emails, phones, links and categories, and its
// images, built by PostgreSQL into one JSON value (listingJson) and decoded here. Two read models
// share it: ListingForView is what the API's answer shows (GET by id, the export, a write's own
// answer); ListingForIndex adds what only the index document carries (the creator's name, the
// rating). The statements that read and write them are in listing-reads-dal.ts and
// listing-writes-dal.ts.
import { eq, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.js';
import { decodeRow } from '../db/decode-row.js';
import { categories, images, listingCategories, listingEmails, listingLinks, listingPhones, listings, offers, partners, reviews } from '../db/schema.js';

export type { Interval, StoredClosure, StoredHours, StoredSpecialDay } from '../db/schema.js';

export type ListingRow = typeof listings.$inferSelect;
export type NewListing = typeof listings.$inferInsert;

export interface ListingForIndex {
  row: ListingRow;
  emails: { id: number; address: string }[];
  phones: { id: number; type: string; number: string }[];
  links: { id: number; type: string; url: string }[];
  categories: { id: string; name: string }[];
  images: StoredImage[];
  /** Mean rating and count over the `website` reviews; undefined without any. */
  rating: { mean: number; count: number } | undefined;
  creatorName: string;
  /** The name of the partner that claims the listing; null when unclaimed. */
  claimantName: string | null;
  /** Whether the listing has an offer (docs/contract.md §7): analysts count them. */
  hasOffer: boolean;
}

export type StoredImage = typeof images.$inferSelect;

/** What the API's answer shows of a listing: a record without what only the index document carries (names, rating, offer). */
export type ListingForView = Omit<ListingForIndex, 'creatorName' | 'rating' | 'claimantName' | 'hasOffer'>;

/** A JSON array of the rows `select` builds for each listing, `[]` when there are none. */
export const jsonRows = <T>(select: SQL) => sql<T[]>`coalesce((${select}), '[]'::json)`;

/**
 * Where a record's lists come from: for each, a relation with its table's columns that holds the
 * rows of one listing (the stored rows of the outer query's listing, or the rows a create inserts).
 */
export interface ListSources {
  emails: SQL;
  phones: SQL;
  links: SQL;
  categories: SQL;
}

/** The emails, phones, links and categories of a listing as JSON arrays in their order, each read from its source. */
export function listsFrom(from: ListSources) {
  return {
    emails: jsonRows<ListingForIndex['emails'][number]>(sql`select json_agg(json_build_object('id', e.id, 'address', e.address) order by e.position)
      from ${from.emails} e`),
    phones: jsonRows<ListingForIndex['phones'][number]>(sql`select json_agg(json_build_object('id', p.id, 'type', p.type, 'number', p.number) order by p.position)
      from ${from.phones} p`),
    links: jsonRows<ListingForIndex['links'][number]>(sql`select json_agg(json_build_object('id', k.id, 'type', k.type, 'url', k.url) order by k.position)
      from ${from.links} k`),
    categories: jsonRows<ListingForIndex['categories'][number]>(sql`select json_agg(json_build_object('id', c.id, 'name', c.name) order by lc.position)
      from ${from.categories} lc join ${categories} c on c.country = lc.country and c.id = lc.category_id`),
  };
}

/** A listing's images as JSON: their timestamps are text until imagesFromJson. */
export type ImageJson = Omit<StoredImage, 'createdAt'> & { createdAt: string };

/** The images of the listing whose id is `listingId` (a column or an expression of the enclosing query), as a JSON array in id order. */
export const imagesOf = (listingId: SQLWrapper) =>
  jsonRows<ImageJson>(sql`select json_agg(json_build_object('id', i.id, 'listingId', i.listing_id,
    'type', i.type, 'caption', i.caption, 'key', i.key, 'ext', i.ext, 'contentType', i.content_type, 'width', i.width, 'height', i.height,
    'size', i.size, 'createdAt', i.created_at) order by i.id) from ${images} i where i.listing_id = ${listingId}`);

export const imagesFromJson = (rows: ImageJson[]): StoredImage[] => rows.map((image) => ({ ...image, createdAt: new Date(image.createdAt) }));

/**
 * The mean rating and count of the listing whose id is `listingId`, as JSON; null without any.
 * Website reviews only: partner reviews are private to their author (docs/contract.md §5 and §9),
 * and a public mean over them would let any partner work out another partner's reviews.
 */
export const ratingOf = (listingId: SQLWrapper) => sql<ListingForIndex['rating'] | null>`(select json_build_object('mean', avg(r.rating), 'count', count(*))
    from ${reviews} r where r.listing_id = ${listingId} and r.origin = 'website' having count(*) > 0)`;

/** The rows of `table` that belong to the listing of the enclosing query: a subquery PostgreSQL flattens into a plain index scan. */
const rowsOfOuterListing = (table: typeof listingEmails | typeof listingPhones | typeof listingLinks | typeof listingCategories) =>
  sql`(select * from ${table} where ${table.listingId} = ${listings.id})`;

/**
 * A listing with its lists and images as one JSON value: the listing row as stored (snake_case
 * columns, JSON values), the lists and the images. One column instead of 26: the driver describes
 * and parses every column of every row it reads, a large share of the client's CPU of a read by
 * id (docs/performance.md).
 */
export interface ListingJson extends Pick<ListingForIndex, 'emails' | 'phones' | 'links' | 'categories'> {
  listing: Record<string, unknown>;
  images: ImageJson[];
}

// One query for any number of listings: each sub-object list is a correlated subquery that builds
// its JSON inside PostgreSQL. Seven parallel queries per read cost seven pool connections and
// round trips; this costs one (GET by id, the export, reindex pages, the indexer's document builder).
const lists = listsFrom({
  emails: rowsOfOuterListing(listingEmails),
  phones: rowsOfOuterListing(listingPhones),
  links: rowsOfOuterListing(listingLinks),
  categories: rowsOfOuterListing(listingCategories),
});
/** What every read selects: the listing, its lists and its images (a ListingForView), as one JSON value. */
export const listingJson = sql<ListingJson>`json_build_object('listing', to_json(${listings}), 'emails', ${lists.emails}, 'phones', ${lists.phones},
  'links', ${lists.links}, 'categories', ${lists.categories}, 'images', ${imagesOf(listings.id)})`;

/** Listings with their lists and images, one row each: what the API's answer shows (GET by id, the export). */
export const selectListingsForView = (db: DbOrTx) => db.select({ record: listingJson }).from(listings);

/** The name of the partner that claims the listing of the enclosing query; null when unclaimed. */
const claimantNameOf = sql<string | null>`(select p.name from ${partners} p where p.id = ${listings.claimedBy})`;
/** Whether the listing of the enclosing query has an offer. */
const hasOfferOf = sql<boolean>`exists (select 1 from ${offers} o where o.listing_id = ${listings.id})`;

/**
 * Listings with every sub-object, their creator's and claimant's names, their rating and whether
 * they have an offer, one row each: what the index document needs (the indexer, reindex pages).
 */
export const selectListingsForIndex = (db: DbOrTx) =>
  db
    .select({ record: listingJson, creatorName: partners.name, rating: ratingOf(listings.id), claimantName: claimantNameOf, hasOffer: hasOfferOf })
    .from(listings)
    .innerJoin(partners, eq(partners.id, listings.createdBy));

export type ListingForIndexRow = Awaited<ReturnType<typeof selectListingsForIndex>>[number];

/** The record of a listing read as JSON, or written and returned by a statement (the listing's columns beside its lists). */
export const toListingForView = ({ listing, images: imageRows, emails, phones, links, categories: categoryList }: ListingJson): ListingForView => ({
  row: decodeRow(listings, listing),
  emails,
  phones,
  links,
  categories: categoryList,
  images: imagesFromJson(imageRows),
});

export const toListingForIndex = (row: ListingForIndexRow): ListingForIndex => ({
  ...toListingForView(row.record),
  rating: row.rating ?? undefined,
  creatorName: row.creatorName,
  claimantName: row.claimantName,
  hasOffer: row.hasOffer,
});

/** The rows a read by ids found, each turned into its record by `to`, by listing id. */
export async function byListingId<Row, R extends { row: ListingRow }>(rows: Promise<Row[]>, to: (row: Row) => R): Promise<Map<number, R>> {
  return new Map(
    (await rows).map((row) => {
      const record = to(row);
      return [record.row.id, record];
    }),
  );
}

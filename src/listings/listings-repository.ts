// Reads listings with all their sub-objects in one query, for one id or many.
// The API reads and the indexer's document builder share it, so both see the same listing.
import { and, eq, isNull, sql, type SQL } from 'drizzle-orm';
import { anyOf } from '../db/any-of.js';
import type { DbOrTx } from '../db/client.js';
import { notFound } from '../errors.js';
import { categories, images, listingCategories, listingEmails, listingLinks, listingPhones, listings, partners, reviews } from '../db/schema.js';

export type ListingRow = typeof listings.$inferSelect;

export interface ListingRecord {
  row: ListingRow;
  emails: { id: number; address: string }[];
  phones: { id: number; type: string; number: string }[];
  links: { id: number; type: string; url: string }[];
  categories: { id: string; name: string }[];
  images: StoredImage[];
  /** Mean rating and count over the `website` reviews; undefined without any. */
  rating: { mean: number; count: number } | undefined;
  creatorName: string;
}

export type StoredImage = typeof images.$inferSelect;

/** A JSON array of the rows `select` builds for each listing, `[]` when there are none. */
const jsonRows = <T>(select: SQL) => sql<T[]>`coalesce((${select}), '[]'::json)`;

// One query for any number of listings: each sub-object list is a correlated subquery that builds
// its JSON inside PostgreSQL. Seven parallel queries per read cost seven pool connections and
// round trips; this costs one (GET by id, reindex pages, the indexer's document builder).
const subObjects = {
  emails: jsonRows<ListingRecord['emails'][number]>(sql`select json_agg(json_build_object('id', e.id, 'address', e.address) order by e.position)
    from ${listingEmails} e where e.listing_id = ${listings.id}`),
  phones: jsonRows<ListingRecord['phones'][number]>(sql`select json_agg(json_build_object('id', p.id, 'type', p.type, 'number', p.number) order by p.position)
    from ${listingPhones} p where p.listing_id = ${listings.id}`),
  links: jsonRows<ListingRecord['links'][number]>(sql`select json_agg(json_build_object('id', l.id, 'type', l.type, 'url', l.url) order by l.position)
    from ${listingLinks} l where l.listing_id = ${listings.id}`),
  categories: jsonRows<ListingRecord['categories'][number]>(sql`select json_agg(json_build_object('id', c.id, 'name', c.name) order by lc.position)
    from ${listingCategories} lc join ${categories} c on c.country = lc.country and c.id = lc.category_id where lc.listing_id = ${listings.id}`),
  images: jsonRows<Omit<StoredImage, 'createdAt'> & { createdAt: string }>(sql`select json_agg(json_build_object('id', i.id, 'listingId', i.listing_id,
    'type', i.type, 'caption', i.caption, 'key', i.key, 'ext', i.ext, 'contentType', i.content_type, 'width', i.width, 'height', i.height,
    'size', i.size, 'createdAt', i.created_at) order by i.id) from ${images} i where i.listing_id = ${listings.id}`),
  // Website reviews only: partner reviews are private to their author (CONTRACT sections 5 and 9),
  // and a public mean over them would let any partner work out another partner's reviews.
  rating: sql<ListingRecord['rating'] | null>`(select json_build_object('mean', avg(r.rating), 'count', count(*))
    from ${reviews} r where r.listing_id = ${listings.id} and r.origin = 'website' having count(*) > 0)`,
};

/** Loads listings by id, soft-deleted ones included (the indexer needs their version). */
export async function loadListingRecords(db: DbOrTx, ids: number[]): Promise<Map<number, ListingRecord>> {
  const records = new Map<number, ListingRecord>();
  if (ids.length === 0) return records;
  const rows = await db.select({ listing: listings, creatorName: partners.name, ...subObjects }).from(listings)
    .innerJoin(partners, eq(partners.id, listings.createdBy)).where(anyOf(listings.id, ids));
  for (const { listing, creatorName, images: imageRows, rating, ...lists } of rows) {
    records.set(listing.id, {
      row: listing,
      ...lists,
      images: imageRows.map((image) => ({ ...image, createdAt: new Date(image.createdAt) })),
      rating: rating ?? undefined,
      creatorName,
    });
  }
  return records;
}

export async function loadListingRecord(db: DbOrTx, id: number): Promise<ListingRecord | undefined> {
  return (await loadListingRecords(db, [id])).get(id);
}

/** The live (not deleted) listing `id` of `country`, with who claims it; 404 otherwise. */
export async function findLiveListing(db: DbOrTx, country: string, id: number): Promise<{ claimedBy: number | null }> {
  const [row] = await db.select({ claimedBy: listings.claimedBy }).from(listings)
    .where(and(eq(listings.id, id), eq(listings.country, country), isNull(listings.deletedAt)));
  if (!row) throw notFound(`listing ${id}`);
  return row;
}

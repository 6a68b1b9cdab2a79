// Reads listings with all their sub-objects in a fixed number of queries, for one id or many.
// The API reads and the indexer's document builder share it, so both see the same listing.
import { and, asc, avg, count, eq, isNull } from 'drizzle-orm';
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
  /** Mean rating and count over all reviews; undefined without reviews. */
  rating: { mean: number; count: number } | undefined;
  creatorName: string;
}

export type StoredImage = typeof images.$inferSelect;

function groupBy<T extends { listingId: number }>(rows: T[]): Map<number, T[]> {
  const groups = new Map<number, T[]>();
  for (const row of rows) {
    const group = groups.get(row.listingId);
    if (group) group.push(row);
    else groups.set(row.listingId, [row]);
  }
  return groups;
}

/** Loads listings by id, soft-deleted ones included (the indexer needs their version). */
export async function loadListingRecords(db: DbOrTx, ids: number[]): Promise<Map<number, ListingRecord>> {
  const records = new Map<number, ListingRecord>();
  if (ids.length === 0) return records;
  const [rows, emails, phones, links, cats, imageRows, ratings] = await Promise.all([
    db.select({ listing: listings, creatorName: partners.name }).from(listings)
      .innerJoin(partners, eq(partners.id, listings.createdBy)).where(anyOf(listings.id, ids)),
    db.select().from(listingEmails).where(anyOf(listingEmails.listingId, ids)).orderBy(asc(listingEmails.position)),
    db.select().from(listingPhones).where(anyOf(listingPhones.listingId, ids)).orderBy(asc(listingPhones.position)),
    db.select().from(listingLinks).where(anyOf(listingLinks.listingId, ids)).orderBy(asc(listingLinks.position)),
    db.select({ listingId: listingCategories.listingId, id: categories.id, name: categories.name })
      .from(listingCategories)
      .innerJoin(categories, and(eq(categories.country, listingCategories.country), eq(categories.id, listingCategories.categoryId)))
      .where(anyOf(listingCategories.listingId, ids)).orderBy(asc(listingCategories.position)),
    db.select().from(images).where(anyOf(images.listingId, ids)).orderBy(asc(images.id)),
    db.select({ listingId: reviews.listingId, mean: avg(reviews.rating).mapWith(Number), count: count() })
      .from(reviews).where(anyOf(reviews.listingId, ids)).groupBy(reviews.listingId),
  ]);
  const [emailsBy, phonesBy, linksBy, catsBy, imagesBy] = [groupBy(emails), groupBy(phones), groupBy(links), groupBy(cats), groupBy(imageRows)];
  const ratingBy = new Map(ratings.map((r) => [r.listingId, { mean: r.mean, count: r.count }]));
  for (const { listing, creatorName } of rows) {
    records.set(listing.id, {
      row: listing,
      emails: (emailsBy.get(listing.id) ?? []).map(({ id, address }) => ({ id, address })),
      phones: (phonesBy.get(listing.id) ?? []).map(({ id, type, number }) => ({ id, type, number })),
      links: (linksBy.get(listing.id) ?? []).map(({ id, type, url }) => ({ id, type, url })),
      categories: (catsBy.get(listing.id) ?? []).map(({ id, name }) => ({ id, name })),
      images: imagesBy.get(listing.id) ?? [],
      rating: ratingBy.get(listing.id),
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

// Reads listings with all their sub-objects in a fixed number of queries, for one id or many.
// The API reads and the indexer's document builder share it, so both see the same listing.
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.js';
import { categories, listingCategories, listingEmails, listingLinks, listingPhones, listings, partners } from '../db/schema.js';

export type ListingRow = typeof listings.$inferSelect;

export interface ListingRecord {
  row: ListingRow;
  emails: { id: number; address: string }[];
  phones: { id: number; type: string; number: string }[];
  links: { id: number; type: string; url: string }[];
  categories: { id: string; name: string }[];
  creatorName: string;
}

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
  const [rows, emails, phones, links, cats] = await Promise.all([
    db.select({ listing: listings, creatorName: partners.name }).from(listings)
      .innerJoin(partners, eq(partners.id, listings.createdBy)).where(inArray(listings.id, ids)),
    db.select().from(listingEmails).where(inArray(listingEmails.listingId, ids)).orderBy(asc(listingEmails.position)),
    db.select().from(listingPhones).where(inArray(listingPhones.listingId, ids)).orderBy(asc(listingPhones.position)),
    db.select().from(listingLinks).where(inArray(listingLinks.listingId, ids)).orderBy(asc(listingLinks.position)),
    db.select({ listingId: listingCategories.listingId, id: categories.id, name: categories.name })
      .from(listingCategories)
      .innerJoin(categories, and(eq(categories.country, listingCategories.country), eq(categories.id, listingCategories.categoryId)))
      .where(inArray(listingCategories.listingId, ids)).orderBy(asc(listingCategories.position)),
  ]);
  const [emailsBy, phonesBy, linksBy, catsBy] = [groupBy(emails), groupBy(phones), groupBy(links), groupBy(cats)];
  for (const { listing, creatorName } of rows) {
    records.set(listing.id, {
      row: listing,
      emails: (emailsBy.get(listing.id) ?? []).map(({ id, address }) => ({ id, address })),
      phones: (phonesBy.get(listing.id) ?? []).map(({ id, type, number }) => ({ id, type, number })),
      links: (linksBy.get(listing.id) ?? []).map(({ id, type, url }) => ({ id, type, url })),
      categories: (catsBy.get(listing.id) ?? []).map(({ id, name }) => ({ id, name })),
      creatorName,
    });
  }
  return records;
}

export async function loadListingRecord(db: DbOrTx, id: number): Promise<ListingRecord | undefined> {
  return (await loadListingRecords(db, [id])).get(id);
}

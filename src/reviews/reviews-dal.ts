// Every SQL statement on reviews.
import { and, count, desc, eq, or, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.js';
import { reviews } from '../db/schema.js';

export type ReviewRow = typeof reviews.$inferSelect;
export type NewReview = typeof reviews.$inferInsert;

/** Who reads: a partner sees website reviews and its own, an admin (`all`) every review. */
export interface ReviewReader {
  partnerId: number;
  all: boolean;
}

const visibleTo = (reader: ReviewReader): SQL | undefined => (reader.all ? undefined : or(eq(reviews.origin, 'website'), eq(reviews.partnerId, reader.partnerId)));

/** The reviews of a listing the reader may see, newest first. */
export function listVisibleReviews(db: DbOrTx, reader: ReviewReader, listingId: number): Promise<ReviewRow[]> {
  return db
    .select()
    .from(reviews)
    .where(and(eq(reviews.listingId, listingId), visibleTo(reader)))
    .orderBy(desc(reviews.reviewedAt), desc(reviews.id));
}

/** Review `reviewId` of the listing, if the reader may see it. */
export async function findVisibleReview(db: DbOrTx, reader: ReviewReader, listingId: number, reviewId: number): Promise<ReviewRow | undefined> {
  const [row] = await db
    .select()
    .from(reviews)
    .where(and(eq(reviews.id, reviewId), eq(reviews.listingId, listingId), visibleTo(reader)));
  return row;
}

/** The id of the partner's review of the listing with this source_id, if any. */
export async function findReviewBySourceId(tx: DbOrTx, listingId: number, partnerId: number, sourceId: string): Promise<number | undefined> {
  const [existing] = await tx
    .select({ id: reviews.id })
    .from(reviews)
    .where(and(eq(reviews.listingId, listingId), eq(reviews.partnerId, partnerId), eq(reviews.sourceId, sourceId)));
  return existing?.id;
}

/** How many reviews the partner holds on the listing. */
export async function countPartnerReviews(tx: DbOrTx, listingId: number, partnerId: number): Promise<number> {
  const [held] = await tx
    .select({ n: count() })
    .from(reviews)
    .where(and(eq(reviews.listingId, listingId), eq(reviews.partnerId, partnerId)));
  return held!.n;
}

export async function insertReview(tx: DbOrTx, values: NewReview): Promise<ReviewRow> {
  const [row] = await tx.insert(reviews).values(values).returning();
  return row!;
}

export async function deleteReview(tx: DbOrTx, reviewId: number): Promise<void> {
  await tx.delete(reviews).where(eq(reviews.id, reviewId));
}

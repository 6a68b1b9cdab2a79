// Reviews (docs/contract.md §9). A partner sees website reviews and its own; an admin sees all.
// Only website reviews make the public rating (docs/contract.md §5), so only they bump the listing
// version: a partner review that moved the version would tell every partner it exists. For the
// same reason a partner review's change-feed entry is visible only to its author (and admins).
import type { Static } from '@sinclair/typebox';
import type { Db, DbOrTx } from '../db/client.js';
import { conflict, forbidden, notFound, validationError } from '../platform/errors.js';
import type { ListingWrites } from '../listings/change-listing.js';
import { findLiveListing } from '../listings/listing-reads-dal.js';
import type { Caller } from '../partners/partners-service.js';
import type { ReviewInputSchema, ReviewSchema } from '../schemas/review.js';
import { countPartnerReviews, deleteReview, findReviewBySourceId, findVisibleReview, insertReview, listVisibleReviews, type ReviewReader, type ReviewRow } from './reviews-dal.js';

export type ReviewInput = Static<typeof ReviewInputSchema>;
export type Review = Static<typeof ReviewSchema>;

/** Clock skew we tolerate before calling a date_time "in the future". */
const FUTURE_TOLERANCE_MS = 60_000;

const toReview = (row: ReviewRow): Review => ({
  id: String(row.id),
  source_id: row.sourceId,
  reviewer: row.reviewer,
  reviewed: row.reviewed,
  title: row.title,
  text: row.text,
  rating: row.rating,
  date_time: row.dateTime,
});

/** Who alone (besides admins) may learn of a change of review `row`: its author, unless a website review. */
const privateTo = (row: ReviewRow): { visibleTo?: number } => (row.origin === 'website' ? {} : { visibleTo: row.partnerId });

/** A partner sees website reviews and its own; an admin sees all. */
const readerOf = (caller: Caller): ReviewReader => ({ partnerId: caller.partnerId, all: caller.role === 'admin' });

interface Deps {
  db: Db;
  writes: Pick<ListingWrites, 'changeListing'>;
  /** Reviews one partner may hold on one listing (REVIEWS_PER_PARTNER_PER_LISTING in config.ts). */
  maxPerPartner: number;
}

export function createReviewsService({ db, writes, maxPerPartner }: Deps) {
  async function visibleReview(tx: DbOrTx, caller: Caller, listingId: number, reviewId: number) {
    const row = await findVisibleReview(tx, readerOf(caller), listingId, reviewId);
    if (!row) throw notFound(`review ${reviewId} of listing ${listingId}`);
    return row;
  }

  async function assertNewSourceId(tx: DbOrTx, caller: Caller, listingId: number, sourceId: string) {
    const existing = await findReviewBySourceId(tx, listingId, caller.partnerId, sourceId);
    if (existing !== undefined) {
      throw conflict(`you already posted review ${existing} with source_id "${sourceId}" for listing ${listingId}`, ['source_id: duplicate for this listing']);
    }
  }

  /** Partner reviews are private and move no public figure, but each still costs storage and list size. */
  async function assertBelowBound(tx: DbOrTx, caller: Caller, listingId: number) {
    if ((await countPartnerReviews(tx, listingId, caller.partnerId)) >= maxPerPartner) {
      throw conflict(`you already hold ${maxPerPartner} reviews on listing ${listingId}; delete one first`, [`reviews: at most ${maxPerPartner} per partner and listing`]);
    }
  }

  return {
    async list(caller: Caller, country: string, listingId: number) {
      await findLiveListing(db, country, listingId);
      const rows = await listVisibleReviews(db, readerOf(caller), listingId);
      return { numFound: rows.length, reviews: rows.map(toReview) };
    },

    async get(caller: Caller, country: string, listingId: number, reviewId: number): Promise<Review> {
      await findLiveListing(db, country, listingId);
      return toReview(await visibleReview(db, caller, listingId, reviewId));
    },

    async create(caller: Caller, country: string, listingId: number, input: ReviewInput): Promise<Review> {
      const reviewedAt = new Date(input.date_time);
      if (Number.isNaN(reviewedAt.getTime())) throw validationError(['date_time: is not a valid date-time']);
      if (reviewedAt.getTime() > Date.now() + FUTURE_TOLERANCE_MS) throw validationError(['date_time: must not be in the future']);
      const origin = caller.role === 'admin' ? 'website' : 'partner';
      // Every review write holds the listing row first, so neither check below can go stale before
      // the insert; the unique index on (listing, partner, source_id) stays as a backstop. Whoever
      // claims the listing, anyone may review it: no ownership rule.
      return writes.changeListing(caller, country, listingId, 'none', async (tx) => {
        await assertNewSourceId(tx, caller, listingId, input.source_id);
        if (origin === 'partner') await assertBelowBound(tx, caller, listingId);
        const row = await insertReview(tx, {
          listingId,
          partnerId: caller.partnerId,
          origin,
          sourceId: input.source_id,
          reviewer: input.reviewer,
          reviewed: input.reviewed,
          title: input.title,
          text: input.text,
          rating: input.rating,
          dateTime: input.date_time,
          reviewedAt,
        });
        return { result: toReview(row), change: 'review_added', ...privateTo(row) };
      });
    },

    async remove(caller: Caller, country: string, listingId: number, reviewId: number): Promise<void> {
      await writes.changeListing(caller, country, listingId, 'none', async (tx) => {
        const row = await visibleReview(tx, caller, listingId, reviewId);
        if (caller.role !== 'admin' && row.partnerId !== caller.partnerId) throw forbidden('website reviews can only be deleted by the service');
        await deleteReview(tx, reviewId);
        return { result: undefined, change: 'review_deleted', ...privateTo(row) };
      });
    },
  };
}

export type ReviewsService = ReturnType<typeof createReviewsService>;

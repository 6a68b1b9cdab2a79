// Every SQL statement about stored media files: whether a live image refers to one, and the
// candidates of the deferred clean-up (media-cleanup.ts).
import { and, eq, isNull, lt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.js';
import { images, listings, mediaCleanup } from '../db/schema.js';

export interface MediaFileRef {
  key: string;
  ext: string;
}

/** The content type of a file while an image of a live (not deleted) listing refers to it. */
export async function findLiveImageFile(db: DbOrTx, { key, ext }: MediaFileRef): Promise<{ contentType: string } | undefined> {
  const [row] = await db
    .select({ contentType: images.contentType })
    .from(images)
    .innerJoin(listings, eq(listings.id, images.listingId))
    .where(and(eq(images.key, key), eq(images.ext, ext), isNull(listings.deletedAt)))
    .limit(1);
  return row;
}

// A candidate marked again starts its grace period anew.
const restartGrace = { target: [mediaCleanup.key, mediaCleanup.ext], set: { since: sql`now()` } };

/** Makes a file a clean-up candidate as of now. */
export async function markForCleanup(db: DbOrTx, file: MediaFileRef): Promise<void> {
  await db.insert(mediaCleanup).values({ key: file.key, ext: file.ext }).onConflictDoUpdate(restartGrace);
}

/** Makes the files of all images of a listing candidates (the listing is being deleted). */
export async function markListingFilesForCleanup(db: DbOrTx, listingId: number): Promise<void> {
  // Distinct (a statement may not update a row twice) and sorted (concurrent deletes lock
  // shared candidates in the same order, so they cannot deadlock).
  await db
    .insert(mediaCleanup)
    .select((qb) =>
      qb
        .selectDistinct({ key: images.key, ext: images.ext, since: sql<Date>`now()`.as('since') })
        .from(images)
        .where(eq(images.listingId, listingId))
        .orderBy(images.key, images.ext),
    )
    .onConflictDoUpdate(restartGrace);
}

/**
 * Locks the oldest candidate marked more than `graceMs` ago (database time, like `since`);
 * candidates another clean-up holds are skipped.
 */
export async function lockExpiredCandidate(tx: DbOrTx, graceMs: number): Promise<MediaFileRef | undefined> {
  const [row] = await tx
    .select({ key: mediaCleanup.key, ext: mediaCleanup.ext })
    .from(mediaCleanup)
    .where(lt(mediaCleanup.since, sql`now() - make_interval(secs => ${graceMs / 1000}::float8)`))
    .orderBy(mediaCleanup.since)
    .limit(1)
    .for('update', { skipLocked: true });
  return row;
}

export async function dropCandidate(tx: DbOrTx, { key, ext }: MediaFileRef): Promise<void> {
  await tx.delete(mediaCleanup).where(and(eq(mediaCleanup.key, key), eq(mediaCleanup.ext, ext)));
}

// Every SQL statement on images (the rows; the bytes are in the media store, the clean-up
// candidates in media-files-dal.ts).
import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.js';
import { images } from '../db/schema.js';

export type ImageRow = typeof images.$inferSelect;
export type NewImage = typeof images.$inferInsert;

/** The images of a listing, oldest first. */
export function listImages(db: DbOrTx, listingId: number): Promise<ImageRow[]> {
  return db.select().from(images).where(eq(images.listingId, listingId)).orderBy(images.id);
}

export async function insertImage(tx: DbOrTx, values: NewImage): Promise<ImageRow> {
  const [row] = await tx.insert(images).values(values).returning();
  return row!;
}

export async function updateImage(tx: DbOrTx, imageId: number, values: Partial<NewImage>): Promise<ImageRow> {
  const [row] = await tx.update(images).set(values).where(eq(images.id, imageId)).returning();
  return row!;
}

export async function deleteImage(tx: DbOrTx, imageId: number): Promise<void> {
  await tx.delete(images).where(eq(images.id, imageId));
}

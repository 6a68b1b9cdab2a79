// Images of a listing (CONTRACT section 8). Changes bump the listing version (images show in
// search results); bytes go to the media store under their content address.
import { and, count, eq } from 'drizzle-orm';
import type { Db, DbOrTx } from '../db/client.js';
import { images } from '../db/schema.js';
import { AppError, conflict, forbidden, notFound, validationError } from '../errors.js';
import { toImage, type Image } from '../listings/listing-view.js';
import { findLiveListing } from '../listings/listings-repository.js';
import type { ListingsService } from '../listings/listings-service.js';
import { isClaimedByOther } from '../listings/ownership.js';
import type { Caller } from '../partners/partners-service.js';
import { decodeImage, type DecodedImage, type ImageLimits } from './decode-image.js';
import { contentKey, MEDIA_FILE_PATTERN, mediaFileName, type MediaStore, type StoredFile } from './media-store.js';

export const MAX_IMAGES_PER_LISTING = 50;

export interface ImageInput {
  type?: string;
  caption?: string;
  base64?: string;
}

interface Deps {
  db: Db;
  listings: Pick<ListingsService, 'writeListing' | 'lockListing'>;
  store: MediaStore;
  mediaBaseUrl: string;
  limits: ImageLimits;
}

export function createImagesService({ db, listings: listingWrites, store, mediaBaseUrl, limits }: Deps) {
  function decode(base64: string): DecodedImage {
    const result = decodeImage(base64, limits);
    if ('image' in result) return result.image;
    if (result.error === 'too_large') throw new AppError('payload_too_large', result.message, [result.message]);
    throw validationError([result.message]);
  }

  /** Stores the bytes; returns the columns that describe them. */
  async function storeImage(image: DecodedImage) {
    const key = contentKey(image.bytes);
    await store.put(mediaFileName(key, image.ext), image.bytes, image.contentType);
    return { key, ext: image.ext, contentType: image.contentType, width: image.width, height: image.height, size: image.bytes.length };
  }

  /** Removes a stored file no image refers to any more (best effort: /media serves only referenced files anyway). */
  async function dropIfUnused(key: string, ext: string) {
    const [used] = await db.select({ n: count() }).from(images).where(eq(images.key, key));
    if (used!.n === 0) await store.delete(mediaFileName(key, ext));
  }

  async function lockForChange(tx: DbOrTx, caller: Caller, country: string, listingId: number) {
    const row = await listingWrites.lockListing(tx, country, listingId);
    if (isClaimedByOther(row.claimedBy, caller)) throw forbidden(`listing ${listingId} is claimed by another partner`);
  }

  async function imageOf(tx: DbOrTx, listingId: number, imageId: number) {
    const [image] = await tx.select().from(images).where(and(eq(images.id, imageId), eq(images.listingId, listingId)));
    if (!image) throw notFound(`image ${imageId} of listing ${listingId}`);
    return image;
  }

  return {
    async list(country: string, listingId: number): Promise<{ numFound: number; images: Image[] }> {
      await findLiveListing(db, country, listingId);
      const rows = await db.select().from(images).where(eq(images.listingId, listingId)).orderBy(images.id);
      return { numFound: rows.length, images: rows.map((r) => toImage(r, mediaBaseUrl)) };
    },

    async create(caller: Caller, country: string, listingId: number, input: Required<ImageInput>): Promise<Image> {
      const decoded = decode(input.base64);
      return listingWrites.writeListing(country, async (tx) => {
        await lockForChange(tx, caller, country, listingId);
        const [held] = await tx.select({ n: count() }).from(images).where(eq(images.listingId, listingId));
        if (held!.n >= MAX_IMAGES_PER_LISTING) throw conflict(`listing ${listingId} already has ${MAX_IMAGES_PER_LISTING} images`);
        const stored = await storeImage(decoded);
        const [row] = await tx.insert(images).values({ listingId, type: input.type, caption: input.caption, ...stored }).returning();
        return { listingId, result: toImage(row!, mediaBaseUrl) };
      });
    },

    async update(caller: Caller, country: string, listingId: number, imageId: number, input: ImageInput): Promise<Image> {
      const decoded = input.base64 === undefined ? undefined : decode(input.base64);
      let replaced: { key: string; ext: string } | undefined;
      const image = await listingWrites.writeListing(country, async (tx) => {
        await lockForChange(tx, caller, country, listingId);
        const before = await imageOf(tx, listingId, imageId);
        const stored = decoded ? await storeImage(decoded) : {};
        const [row] = await tx.update(images).set({
          ...(input.type !== undefined ? { type: input.type } : {}),
          ...(input.caption !== undefined ? { caption: input.caption } : {}),
          ...stored,
        }).where(eq(images.id, imageId)).returning();
        if (decoded && before.key !== row!.key) replaced = before;
        return { listingId, result: toImage(row!, mediaBaseUrl) };
      });
      if (replaced) await dropIfUnused(replaced.key, replaced.ext);
      return image;
    },

    async remove(caller: Caller, country: string, listingId: number, imageId: number): Promise<void> {
      const removed = await listingWrites.writeListing(country, async (tx) => {
        await lockForChange(tx, caller, country, listingId);
        const image = await imageOf(tx, listingId, imageId);
        await tx.delete(images).where(eq(images.id, imageId));
        return { listingId, result: image };
      });
      await dropIfUnused(removed.key, removed.ext);
    },

    /** A public media file, opened as a stream, only while an image refers to it. */
    async file(file: string): Promise<(StoredFile & { contentType: string }) | undefined> {
      if (!MEDIA_FILE_PATTERN.test(file)) return undefined;
      const [key, ext] = file.split('.') as [string, string];
      const [image] = await db.select({ contentType: images.contentType }).from(images).where(and(eq(images.key, key), eq(images.ext, ext))).limit(1);
      if (!image) return undefined;
      const stored = await store.open(file);
      return stored && { ...stored, contentType: image.contentType };
    },
  };
}

export type ImagesService = ReturnType<typeof createImagesService>;

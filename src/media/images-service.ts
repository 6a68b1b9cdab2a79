// Images of a listing (docs/contract.md §8). Changes bump the listing version (images show in
// search results) and record the listing's `images` before them in its history; they honour
// If-Match (docs/contract.md §20). Bytes go to the media store under their content address,
// written before the transaction so that no listing lock is held during the write, and removed only
// by the deferred clean-up (media-cleanup.ts).
import type { Db, DbOrTx } from '../db/client.js';
import { AppError, conflict, notFound, validationError } from '../platform/errors.js';
import type { ListingWrites, WriteOptions } from '../listings/change-listing.js';
import { changedValue } from '../listings/listing-diff.js';
import { toImage, type Image } from '../listings/listing-view.js';
import { findLiveListing } from '../listings/listing-reads-dal.js';
import type { Caller } from '../partners/partners-service.js';
import type { ImageInput, ImagesPage } from '../schemas/media.js';
import { decodeImage, type DecodedImage, type ImageLimits } from './decode-image.js';
import { deleteImage, insertImage, listImages, updateImage, type ImageRow } from './images-dal.js';
import { findLiveImageFile, markForCleanup } from './media-files-dal.js';
import { contentKey, MEDIA_FILE_PATTERN, mediaFileName, parseMediaFileName, type MediaStore, type StoredFile } from './media-store.js';

export const MAX_IMAGES_PER_LISTING = 50;

interface Deps {
  db: Db;
  writes: Pick<ListingWrites, 'changeListing' | 'assertMayChange'>;
  store: MediaStore;
  mediaBaseUrl: string;
  limits: ImageLimits;
}

export function createImagesService({ db, writes, store, mediaBaseUrl, limits }: Deps) {
  function decode(base64: string): DecodedImage {
    const result = decodeImage(base64, limits);
    if ('image' in result) return result.image;
    if (result.error === 'too_large') throw new AppError('payload_too_large', result.message, [result.message]);
    throw validationError([result.message]);
  }

  /**
   * Stores the bytes ahead of the transaction that will refer to them; returns the columns that
   * describe them. Should that transaction fail, the clean-up removes the file later.
   */
  async function storeImage(image: DecodedImage) {
    const key = contentKey(image.bytes);
    // Marked (and committed) before the write: the clean-up then spares this file for the grace
    // period, and waits for a deletion of an earlier copy to finish before this write begins.
    await markForCleanup(db, { key, ext: image.ext });
    await store.put(mediaFileName(key, image.ext), image.bytes, image.contentType);
    return { key, ext: image.ext, contentType: image.contentType, width: image.width, height: image.height, size: image.bytes.length };
  }

  /** The listing's images under its lock: what the change starts from, and what its history records as `images` before it. */
  async function imagesUnderLock(tx: DbOrTx, listingId: number) {
    const rows = await listImages(tx, listingId);
    const shown = rows.map((row) => toImage(row, mediaBaseUrl));
    return {
      rows,
      /** The history of a change that makes the listing's images `after`. */
      before: (after: (images: Image[]) => Image[]) => changedValue('images', shown, after(shown)),
    };
  }

  function imageOf(rows: ImageRow[], listingId: number, imageId: number) {
    const image = rows.find((row) => row.id === imageId);
    if (!image) throw notFound(`image ${imageId} of listing ${listingId}`);
    return image;
  }

  return {
    async list(country: string, listingId: number): Promise<ImagesPage> {
      await findLiveListing(db, country, listingId);
      const rows = await listImages(db, listingId);
      return { numFound: rows.length, images: rows.map((r) => toImage(r, mediaBaseUrl)) };
    },

    async create(caller: Caller, country: string, listingId: number, input: ImageInput, options: WriteOptions = {}): Promise<Image> {
      const image = decode(input.base64);
      // Checked before any byte is stored, so that a partner cannot park files on listings it may
      // not change or that do not exist.
      await writes.assertMayChange(caller, country, listingId, 'forbidden');
      const stored = await storeImage(image);
      return writes.changeListing(
        caller,
        country,
        listingId,
        'forbidden',
        async (tx) => {
          const held = await imagesUnderLock(tx, listingId);
          if (held.rows.length >= MAX_IMAGES_PER_LISTING) throw conflict(`listing ${listingId} already has ${MAX_IMAGES_PER_LISTING} images`);
          const image = toImage(await insertImage(tx, { listingId, type: input.type, caption: input.caption, ...stored }), mediaBaseUrl);
          return { result: image, change: 'image_added', before: held.before((shown) => [...shown, image]) };
        },
        options,
      );
    },

    async update(caller: Caller, country: string, listingId: number, imageId: number, input: Partial<ImageInput>, options: WriteOptions = {}): Promise<Image> {
      const image = input.base64 === undefined ? undefined : decode(input.base64);
      await writes.assertMayChange(caller, country, listingId, 'forbidden');
      const stored = image === undefined ? {} : await storeImage(image);
      return writes.changeListing(
        caller,
        country,
        listingId,
        'forbidden',
        async (tx) => {
          const held = await imagesUnderLock(tx, listingId);
          const previous = imageOf(held.rows, listingId, imageId);
          const row = await updateImage(tx, imageId, {
            ...(input.type !== undefined ? { type: input.type } : {}),
            ...(input.caption !== undefined ? { caption: input.caption } : {}),
            ...stored,
          });
          if (previous.key !== row.key || previous.ext !== row.ext) await markForCleanup(tx, previous);
          const image = toImage(row, mediaBaseUrl);
          return { result: image, change: 'image_changed', before: held.before((shown) => shown.map((s) => (s.id === image.id ? image : s))) };
        },
        options,
      );
    },

    async remove(caller: Caller, country: string, listingId: number, imageId: number, options: WriteOptions = {}): Promise<void> {
      await writes.changeListing(
        caller,
        country,
        listingId,
        'forbidden',
        async (tx) => {
          const held = await imagesUnderLock(tx, listingId);
          const image = imageOf(held.rows, listingId, imageId);
          await deleteImage(tx, imageId);
          await markForCleanup(tx, image);
          return { result: undefined, change: 'image_deleted', before: held.before((shown) => shown.filter((s) => s.id !== String(imageId))) };
        },
        options,
      );
    },

    /** A public media file, opened as a stream, only while an image of a live listing refers to it. */
    async file(file: string): Promise<(StoredFile & { contentType: string }) | undefined> {
      if (!MEDIA_FILE_PATTERN.test(file)) return undefined;
      const image = await findLiveImageFile(db, parseMediaFileName(file));
      if (!image) return undefined;
      const stored = await store.open(file);
      return stored && { ...stored, contentType: image.contentType };
    },
  };
}

export type ImagesService = ReturnType<typeof createImagesService>;

// Where image bytes live. Keys are content addresses (sha256 of the bytes), so an upload of the
// same file twice stores it once, and a stored object never changes (hence `immutable` caching).
import { createHash } from 'node:crypto';

export interface MediaStore {
  put(file: string, bytes: Buffer, contentType: string): Promise<void>;
  /** The bytes, or undefined when absent. */
  get(file: string): Promise<Buffer | undefined>;
  delete(file: string): Promise<void>;
}

export const contentKey = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** The stored file name: `<sha256>.<ext>`. */
export const mediaFileName = (key: string, ext: string) => `${key}.${ext}`;

/** A valid stored file name, so that a request path can never leave the media directory. */
export const MEDIA_FILE_PATTERN = /^[0-9a-f]{64}\.(jpg|png|gif|webp)$/;

export const mediaUrl = (publicBaseUrl: string, file: string) => `${publicBaseUrl.replace(/\/$/, '')}/media/${file}`;

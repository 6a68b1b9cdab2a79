// Where image bytes live. Keys are content addresses (sha256 of the bytes), so an upload of the
// same file twice stores it once and a stored object never changes; but one object may belong to
// several images, so it is only removed by the deferred clean-up (media-cleanup.ts).
import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';

/** An opened stored file: its bytes as a stream (the caller consumes or destroys it) and its size. */
export interface StoredFile {
  body: Readable;
  /** Bytes, when the store reports them. */
  size: number | undefined;
}

export interface MediaStore {
  put(file: string, bytes: Buffer, contentType: string): Promise<void>;
  /** The file as a stream, or undefined when absent. */
  open(file: string): Promise<StoredFile | undefined>;
  delete(file: string): Promise<void>;
}

export const contentKey = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** The stored file name: `<sha256>.<ext>`. */
export const mediaFileName = (key: string, ext: string) => `${key}.${ext}`;

/** A valid stored file name, so that a request path can never leave the media directory. */
export const MEDIA_FILE_PATTERN = /^[0-9a-f]{64}\.(jpg|png|gif|webp)$/;

/** Key and extension of a file name that matches MEDIA_FILE_PATTERN. */
export function parseMediaFileName(file: string): { key: string; ext: string } {
  const [key, ext] = file.split('.') as [string, string];
  return { key, ext };
}

export const mediaUrl = (publicBaseUrl: string, file: string) => `${publicBaseUrl.replace(/\/$/, '')}/media/${file}`;

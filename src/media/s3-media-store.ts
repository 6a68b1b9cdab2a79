// An S3-compatible store (AWS S3, MinIO, Ceph...), chosen with MEDIA_DRIVER=s3. The API still
// serves /media/<file> itself, so image URLs do not depend on the driver.
import { DeleteObjectCommand, GetObjectCommand, NoSuchKey, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import type { Readable } from 'node:stream';
import type { MediaStore } from './media-store.js';

export interface S3Options {
  bucket: string;
  prefix: string;
  region: string;
  endpoint?: string | undefined;
}

/** The object key of a media file: `<prefix><first two hex chars>/<file>` spreads keys over prefixes. */
export function s3ObjectKey(prefix: string, file: string): string {
  const clean = prefix === '' || prefix.endsWith('/') ? prefix : `${prefix}/`;
  return `${clean}${file.slice(0, 2)}/${file}`;
}

export function createS3MediaStore(
  options: S3Options,
  client = new S3Client({
    region: options.region,
    // A hung store must not hold a large-body slot or a request forever (docs/security.md).
    requestHandler: { connectionTimeout: 5_000, requestTimeout: 30_000 },
    ...(options.endpoint ? { endpoint: options.endpoint, forcePathStyle: true } : {}),
  }),
): MediaStore {
  const Key = (file: string) => s3ObjectKey(options.prefix, file);
  return {
    async put(file, bytes, contentType) {
      await client.send(new PutObjectCommand({ Bucket: options.bucket, Key: Key(file), Body: bytes, ContentType: contentType }));
    },
    async open(file) {
      try {
        const res = await client.send(new GetObjectCommand({ Bucket: options.bucket, Key: Key(file) }));
        // In Node the SDK's body is the HTTP response stream: it is passed on, never buffered.
        return { body: res.Body as Readable, size: res.ContentLength };
      } catch (err) {
        if (err instanceof NoSuchKey) return undefined;
        throw err;
      }
    },
    async delete(file) {
      await client.send(new DeleteObjectCommand({ Bucket: options.bucket, Key: Key(file) }));
    },
  };
}

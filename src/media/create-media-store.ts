// The media store the configuration names; the API writes and serves files through it, the
// indexer's housekeeping removes them, so both processes must build the same one.
import type { Config } from '../platform/config.js';
import { createLocalMediaStore } from './local-media-store.js';
import type { MediaStore } from './media-store.js';

export function createMediaStore(config: Config): MediaStore {
  if (config.MEDIA_DRIVER === 'local') return createLocalMediaStore(config.MEDIA_DIR);
  // The AWS SDK is large: load it only when the s3 driver is configured.
  const s3 = import('./s3-media-store.js').then(({ createS3MediaStore }) =>
    createS3MediaStore({ bucket: config.S3_BUCKET, prefix: config.S3_PREFIX, region: config.S3_REGION, endpoint: config.S3_ENDPOINT || undefined }),
  );
  return {
    put: async (...args) => (await s3).put(...args),
    open: async (...args) => (await s3).open(...args),
    delete: async (...args) => (await s3).delete(...args),
  };
}

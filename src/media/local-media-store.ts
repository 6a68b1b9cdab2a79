import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { MEDIA_FILE_PATTERN, type MediaStore } from './media-store.js';

/** Stores files in a local directory (the default driver; MEDIA_DIR). */
export function createLocalMediaStore(dir: string): MediaStore {
  const path = (file: string) => {
    if (!MEDIA_FILE_PATTERN.test(file)) throw new Error(`not a media file name: ${file}`);
    return join(dir, file.slice(0, 2), file);
  };
  return {
    async put(file, bytes) {
      const target = path(file);
      await mkdir(join(dir, file.slice(0, 2)), { recursive: true });
      // Write then rename: a reader never sees a half-written file.
      const temp = `${target}.${process.pid}.${Date.now()}.tmp`;
      await writeFile(temp, bytes);
      await rename(temp, target);
    },
    async get(file) {
      try {
        return await readFile(path(file));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw err;
      }
    },
    async delete(file) {
      await rm(path(file), { force: true });
    },
  };
}

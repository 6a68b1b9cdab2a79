import { randomUUID } from 'node:crypto';
import { type FileHandle, mkdir, open, rename, rm, writeFile } from 'node:fs/promises';
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
      // Write then rename: a reader never sees a half-written file. The temporary name is unique, as
      // two partners may upload the same bytes (the same target) at once.
      const temp = `${target}.${randomUUID()}.tmp`;
      await writeFile(temp, bytes);
      await rename(temp, target);
    },
    async open(file) {
      let handle: FileHandle;
      try {
        handle = await open(path(file), 'r');
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw err;
      }
      // Size and stream from one open handle: a clean-up that unlinks the file meanwhile cannot
      // make them disagree.
      try {
        const { size } = await handle.stat();
        return { body: handle.createReadStream(), size };
      } catch (err) {
        await handle.close();
        throw err;
      }
    },
    async delete(file) {
      await rm(path(file), { force: true });
    },
  };
}

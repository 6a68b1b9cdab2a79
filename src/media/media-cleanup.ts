// The deferred clean-up of stored files. A content-addressed file may be shared by the images of
// several listings, and by an upload that has written it but not yet committed its image row
// (invisible to this check). So nothing removes a file on the spot: uploads and removals mark it
// a candidate, and a file goes only once its latest mark is older than the grace period (longer
// than any upload transaction) and no image of a live listing refers to it.
import type { Db } from '../db/client.js';
import { dropCandidate, findLiveImageFile, lockExpiredCandidate } from './media-files-dal.js';
import { mediaFileName, type MediaStore } from './media-store.js';

export interface MediaCleanupDeps {
  db: Db;
  store: Pick<MediaStore, 'delete'>;
  graceMs: number;
}

/** Handles expired candidates one by one, at most `limit` in a pass. */
export async function sweepMediaFiles({ db, store, graceMs }: MediaCleanupDeps, limit = 10_000): Promise<{ removed: number; kept: number }> {
  const counts = { removed: 0, kept: 0 };
  for (let n = 0; n < limit; n++) {
    // One candidate a transaction: its row lock is held while the file is deleted, so an upload of
    // the same bytes, whose mark waits for that lock, writes its copy only after the deletion.
    const outcome = await db.transaction(async (tx) => {
      const file = await lockExpiredCandidate(tx, graceMs);
      if (!file) return undefined;
      const inUse = await findLiveImageFile(tx, file);
      if (!inUse) await store.delete(mediaFileName(file.key, file.ext));
      // A file still in use is marked again when its last image goes.
      await dropCandidate(tx, file);
      return inUse ? 'kept' : 'removed';
    });
    if (!outcome) break;
    counts[outcome]++;
  }
  return counts;
}

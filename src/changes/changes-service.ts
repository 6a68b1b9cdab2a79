// The change feed (docs/contract.md §14): pages of one country's changes in feed order, for a
// caller who sees only the changes it may see, behind an opaque cursor.
import type { Db } from '../db/client.js';
import { AppError, validationError } from '../platform/errors.js';
import type { Caller } from '../partners/partners-service.js';
import type { ChangeKind } from './change-kinds.js';
import { feedWindow, hasPendingChanges, purgedThroughOf, readCountryChangesAfter, sequencePendingChanges, type ChangeRow } from './changes-dal.js';
import { decodeCursor, encodeCursor } from './feed-cursor.js';

export interface FeedEntry {
  cursor: string;
  id: string;
  kind: ChangeKind;
  version: number;
  at: string;
  fields: string[];
}

export interface FeedPage {
  changes: FeedEntry[];
  next: string;
  hasMore: boolean;
}

/** `after=now`: start at the current end of the feed. */
export const AFTER_NOW = 'now';

/**
 * Numbers the committed changes that wait for a position. Readers call it first, so that a change
 * is in the feed at once after its commit, whatever the indexer's sequencer is doing; it costs one
 * look-up when nothing waits.
 */
export async function sequenceIfPending(db: Db): Promise<void> {
  if (await hasPendingChanges(db)) await sequencePendingChanges(db);
}

/** Whether `caller` may learn of the change: a partner's own review is its author's (and admins') alone. */
const maySee = (caller: Caller, row: ChangeRow) => row.visibleTo === null || caller.role === 'admin' || row.visibleTo === caller.partnerId;

const toEntry = (row: ChangeRow): FeedEntry => ({
  cursor: encodeCursor(row.seq),
  id: String(row.listingId),
  kind: row.kind,
  version: row.version,
  at: row.at.toISOString(),
  fields: row.fields,
});

/** The position a client's `after` names; 400 when it is not a cursor of ours. */
export function positionOf(after: string): number {
  const position = decodeCursor(after);
  if (position === undefined) throw validationError(['after: must be a cursor from this feed (a `cursor` or `next` value) or "now"']);
  return position;
}

export function createChangesService({ db }: { db: Db }) {
  return {
    /**
     * Up to `limit` changes of `country` after the cursor `after` (the oldest kept when absent),
     * those `caller` may not see left out; `next` moves past them too, so a client never reads
     * them again. 410 when changes after `after` were purged already.
     */
    async page(caller: Caller, country: string, after: string | undefined, limit: number): Promise<FeedPage> {
      const given = after === undefined || after === AFTER_NOW ? undefined : positionOf(after);
      await sequenceIfPending(db);
      if (after === AFTER_NOW) return { changes: [], next: encodeCursor((await feedWindow(db)).end), hasMore: false };
      const window = await feedWindow(db);
      // A position the feed has not reached was never handed out (or the feed was restored from
      // an older backup): following it would wait silently for changes it has missed.
      if (given !== undefined && given > window.end) throw validationError(['after: is not a position of this feed']);
      const from = given ?? window.purgedThrough;
      const rows = await readCountryChangesAfter(db, country, from, limit + 1);
      // Read after the rows: a purge that ran before them shows here, so no page silently skips.
      // Per country: a cursor of a country that was quiet while others' changes were purged missed nothing.
      if (given !== undefined && given < (await purgedThroughOf(db, country))) {
        throw new AppError('gone', 'changes after this cursor are no longer kept; start again from an export (GET /:country/listings/export)');
      }
      const scanned = rows.slice(0, limit);
      const last = scanned.at(-1);
      return {
        changes: scanned.filter((row) => maySee(caller, row)).map(toEntry),
        next: encodeCursor(last ? last.seq : from),
        hasMore: rows.length > limit,
      };
    },
  };
}

export type ChangesService = ReturnType<typeof createChangesService>;

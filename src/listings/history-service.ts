// Reading a listing's history (docs/contract.md §21): pages of versions with the fields each changed
// and who changed them, and the listing as it was at one version. Both are rebuilt from the listing
// as it is now and the history rows above the version asked for (listing-history.ts), read in one
// statement. Who may read what: everyone who may read the listing reads its history; a deleted
// listing's only admins; a past `contact` only the partner claiming the listing now, and admins.
import type { Db } from '../db/client.js';
import { notFound } from '../platform/errors.js';
import type { Caller } from '../partners/partners-service.js';
import { historyEntry, listingsAtVersions, type HistoryEntry } from './listing-history.js';
import { readListingWithHistory, type ListingWithHistory } from './listing-history-dal.js';
import { toListing, type Listing, type PublicUrls } from './listing-view.js';

export interface HistoryPage {
  versions: HistoryEntry[];
  /** Send as `before` for the next page; absent on the last. */
  next?: number;
}

/** Above every version: `before` of the first page. */
const NEWEST = Number.MAX_SAFE_INTEGER;

export function createHistoryService({ db, urls }: { db: Db; urls: PublicUrls }) {
  /** The listing and the rows of a page, or 404: unknown, of another country, or deleted and the caller no admin. */
  async function readable(caller: Caller, country: string, id: number, before: number, limit: number) {
    const found = await readListingWithHistory(db, id, before, limit);
    const row = found?.record.row;
    if (!found || !row || row.country !== country || (row.deletedAt !== null && caller.role !== 'admin')) throw notFound(`listing ${id}`);
    return { ...found, current: toListing(found.record, urls), seesContact: caller.role === 'admin' || row.claimedBy === caller.partnerId };
  }

  /** The page's versions (those below `before`) rebuilt: each row's entry with the listing after it, newest first. */
  function entries(caller: Caller, { rows, current, seesContact }: ListingWithHistory & { current: Listing; seesContact: boolean }, before: number) {
    const states = listingsAtVersions(current, rows);
    return rows
      .filter((row) => row.version < before)
      .flatMap((row) => {
        const after = states.get(row.version);
        return after ? [historyEntry(row, after, caller, seesContact)] : [];
      });
  }

  return {
    /** Up to `limit` versions below `before` (the newest without it), newest first. */
    async page(caller: Caller, country: string, id: number, { before, limit }: { before?: number | undefined; limit: number }): Promise<HistoryPage> {
      const found = await readable(caller, country, id, before ?? NEWEST, limit);
      const versions = entries(caller, found, before ?? NEWEST);
      const oldest = versions.at(-1);
      return found.more && oldest ? { versions, next: oldest.version } : { versions };
    },

    /**
     * The listing as it was at `version`, that version's number as its own; 404 when no such version
     * is kept. A past contact is null to a caller who may not see it.
     */
    async listingAt(caller: Caller, country: string, id: number, version: number): Promise<Listing> {
      const found = await readable(caller, country, id, version + 1, 1);
      const past = listingsAtVersions(found.current, found.rows).get(version);
      if (!past) throw notFound(`version ${version} of listing ${id}`);
      return found.seesContact ? past : { ...past, contact: null };
    },
  };
}

export type HistoryService = ReturnType<typeof createHistoryService>;

// The one unit of work of every listing workflow (update, delete, claims, suppression, offers,
// images, reviews). One transaction locks the listing row, applies the ownership rule under the
// lock, runs the workflow and records the change it names for the change feed (docs/contract.md
// §14); when the change is part of what the index shows, it also moves the listing to its next
// version (unless the workflow's own statement did) and records the outbox event. The event is
// published after commit (docs/architecture.md, "The write path": the outbox is the guarantee, the enqueue only
// saves latency). A create has its own entry, addListing: one statement that records the same,
// with no transaction.
import type { ChangeKind } from '../changes/change-kinds.js';
import { recordChange } from '../changes/changes-dal.js';
import type { Db, DbOrTx } from '../db/client.js';
import { isUniqueViolation } from '../db/pg-errors.js';
import { conflict, forbidden, notFound } from '../platform/errors.js';
import type { SyncListingJob } from '../outbox/jobs.js';
import type { PublishIndexEvents } from '../outbox/publisher.js';
import type { Caller } from '../partners/partners-service.js';
import { findLiveListing } from './listing-reads-dal.js';
import type { ListingRow } from './listing-records.js';
import { lockLiveListing, updateListingToNextVersion } from './listing-writes-dal.js';
import { isClaimedByOther } from './ownership.js';

/**
 * What a listing claimed by another partner means for a workflow (docs/contract.md §3): `forbidden`
 * (403) for changes of its content, `conflict` (409) for claiming or suppressing it, `none` for
 * workflows with a rule of their own (reviews).
 */
export type OwnershipRule = 'forbidden' | 'conflict' | 'none';

export interface ListingChange<T> {
  result: T;
  /** What the workflow changed, as the change feed names it; null when it changed nothing (a repeated claim). */
  change: ChangeKind | null;
  /** Set when only this partner (and admins) may learn of the change: a partner's own review. */
  visibleTo?: number;
  /**
   * The version the workflow's own statement moved the listing to, when it writes the listing's row
   * anyway (an update, a claim, a delete: replaceListing, updateListingToNextVersion): changeListing
   * then records the change at that version instead of moving it with a statement of its own.
   */
  movedTo?: number;
}

/**
 * Whether a change moves the listing to its next version and reaches the index: every change but
 * a private one (a partner's own review), which must not move the public version, since that
 * would tell every partner it exists (docs/contract.md §9, §14). Offers move it too: the index
 * document says whether a listing has one (`has_offer`, for analysts; docs/contract.md §22).
 */
export function movesVersion(_kind: ChangeKind, visibleTo?: number): boolean {
  return visibleTo === undefined;
}

/** Throws 403 or 409, as `rule` says, when another partner holds the claim on listing `id`. */
export function assertOwnership(claimedBy: number | null, caller: Caller, id: number, rule: OwnershipRule): void {
  if (rule === 'none' || !isClaimedByOther(claimedBy, caller)) return;
  const message = `listing ${id} is claimed by another partner`;
  throw rule === 'conflict' ? conflict(message) : forbidden(message);
}

/** The 409 of a write that lost a race on a unique key: a retry sees what the other one did. */
export const CONCURRENT_CHANGE = 'a concurrent request changed the same resource; retry';

export function createListingWrites({ db, publish }: { db: Db; publish: PublishIndexEvents }) {
  /** Commits `work`, then publishes its event; a unique violation (a concurrent twin) is a 409. */
  async function commitThenPublish<T>(work: (tx: DbOrTx) => Promise<{ event?: SyncListingJob; result: T }>): Promise<T> {
    try {
      const { event, result } = await db.transaction(work);
      if (event) await publish([event]);
      return result;
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict(CONCURRENT_CHANGE);
      throw err;
    }
  }

  return {
    /**
     * Locks the live listing `id` of `country` (404 without one), applies `rule`, runs `fn` and
     * records the change `fn` names (none when it names none), with a new version and an outbox
     * event when movesVersion says so. The ownership check must run under the lock: a claim
     * committed in between would otherwise let another partner's write land on the newly claimed
     * listing.
     */
    changeListing<T>(
      caller: Caller,
      country: string,
      id: number,
      rule: OwnershipRule,
      fn: (tx: DbOrTx, row: ListingRow) => Promise<ListingChange<T>>,
    ): Promise<T> {
      return commitThenPublish(async (tx) => {
        const row = await lockLiveListing(tx, country, id);
        if (!row) throw notFound(`listing ${id}`);
        assertOwnership(row.claimedBy, caller, id, rule);
        const { result, change, visibleTo, movedTo } = await fn(tx, row);
        const indexed = change !== null && movesVersion(change, visibleTo);
        // A version moved with no change recorded would reach neither the feed nor the index.
        if (movedTo !== undefined && !indexed) throw new Error(`a ${change ?? 'null'} change must not move the listing's version`);
        if (change === null) return { result };
        const version = indexed ? movedTo ?? await updateListingToNextVersion(tx, id) : row.version;
        // After the change: a claim hands the listing to the caller; for `unclaimed` the feed keeps
        // the claimant before it (webhook scope `claimed`, docs/contract.md §15).
        const claimedBy = change === 'claimed' ? caller.partnerId : row.claimedBy;
        // An admin's takeover ends the previous claim: its partner learns of it as an `unclaimed`
        // (webhook scope `claimed` follows claimedBy), just before the new claimant's `claimed`.
        if (change === 'claimed' && row.claimedBy !== null && row.claimedBy !== caller.partnerId) {
          await recordChange(tx, { listingId: id, country, kind: 'unclaimed', version, claimedBy: row.claimedBy }, { indexed: false });
        }
        await recordChange(tx, { listingId: id, country, kind: change, version, claimedBy, visibleTo }, { indexed });
        return { event: indexed ? { listingId: id, country, version } : undefined, result };
      });
    },

    /**
     * Runs `insert`: one statement, committed on its own, that adds a listing at its first version
     * with its `created` change and outbox event (insertCreatedListing), or adds nothing and
     * returns undefined. Publishes the event once it has committed; returns what `insert` returned
     * (the new listing), or undefined when nothing was added: refused, or beaten to a unique key (a
     * concurrent create that took the same source_id), which fails the statement as a whole. The
     * caller finds out which.
     */
    async addListing<T extends { row: { id: number; version: number } }>(country: string, insert: (db: Db) => Promise<T | undefined>): Promise<T | undefined> {
      let added: T | undefined;
      try {
        added = await insert(db);
      } catch (err) {
        if (isUniqueViolation(err)) return undefined;
        throw err;
      }
      if (added) await publish([{ listingId: added.row.id, country, version: added.row.version }]);
      return added;
    },

    /**
     * The ownership check without a lock, for work that must not run under one (storing image
     * bytes): it refuses early; the lock in changeListing checks again.
     */
    async assertMayChange(caller: Caller, country: string, id: number, rule: OwnershipRule): Promise<void> {
      const { claimedBy } = await findLiveListing(db, country, id);
      assertOwnership(claimedBy, caller, id, rule);
    },
  };
}

export type ListingWrites = ReturnType<typeof createListingWrites>;

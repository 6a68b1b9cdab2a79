// The one unit of work of every listing workflow (update, delete, claims, suppression, offers,
// images, reviews; create has its own entry, addListing). One transaction locks the listing row,
// applies the ownership rule under the lock, runs the workflow and, when the workflow changed what
// the index shows, moves the listing to its next version and records the outbox event; the event
// is published after commit (README "Architecture": the outbox is the guarantee, the enqueue only
// saves latency).
import type { Db, DbOrTx } from '../db/client.js';
import { isUniqueViolation } from '../db/pg-errors.js';
import { conflict, forbidden, notFound } from '../errors.js';
import type { SyncListingJob } from '../outbox/jobs.js';
import { recordIndexEvent } from '../outbox/outbox-dal.js';
import type { PublishIndexEvents } from '../outbox/publisher.js';
import type { Caller } from '../partners/partners-service.js';
import { bumpVersion, findLiveListing, lockLiveListing, type ListingRow } from './listings-dal.js';
import { isClaimedByOther } from './ownership.js';

/**
 * What a listing claimed by another partner means for a workflow (docs/contract.md §3): `forbidden`
 * (403) for changes of its content, `conflict` (409) for claiming or suppressing it, `none` for
 * workflows with a rule of their own (reviews).
 */
export type OwnershipRule = 'forbidden' | 'conflict' | 'none';

export interface ListingChange<T> {
  result: T;
  /**
   * Whether the index must learn of the change (default true). False for a repeated call that
   * changed nothing and for changes the index does not show (offers, partner reviews): no new
   * version, no outbox event.
   */
  changed?: boolean;
}

/** Throws 403 or 409, as `rule` says, when another partner holds the claim on listing `id`. */
export function assertOwnership(claimedBy: number | null, caller: Caller, id: number, rule: OwnershipRule): void {
  if (rule === 'none' || !isClaimedByOther(claimedBy, caller)) return;
  const message = `listing ${id} is claimed by another partner`;
  throw rule === 'conflict' ? conflict(message) : forbidden(message);
}

export function createListingWrites({ db, publish }: { db: Db; publish: PublishIndexEvents }) {
  /** Commits `work`, then publishes its event; a unique violation (a concurrent twin) is a 409. */
  async function commitThenPublish<T>(work: (tx: DbOrTx) => Promise<{ event?: SyncListingJob; result: T }>): Promise<T> {
    try {
      const { event, result } = await db.transaction(work);
      if (event) await publish([event]);
      return result;
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict('a concurrent request changed the same resource; retry');
      throw err;
    }
  }

  return {
    /**
     * Locks the live listing `id` of `country` (404 without one), applies `rule`, runs `fn` and,
     * when `fn` says the listing changed, bumps its version and records the outbox event. The
     * ownership check must run under the lock: a claim committed in between would otherwise let
     * another partner's write land on the newly claimed listing.
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
        const { result, changed = true } = await fn(tx, row);
        if (!changed) return { result };
        const event = { listingId: id, country, version: await bumpVersion(tx, id) };
        await recordIndexEvent(tx, event);
        return { event, result };
      });
    },

    /**
     * Runs `insert`, which adds one listing at its first version and returns it, and records the
     * outbox event of that version; returns the new id.
     */
    addListing(country: string, insert: (tx: DbOrTx) => Promise<{ id: number; version: number }>): Promise<number> {
      return commitThenPublish(async (tx) => {
        const listing = await insert(tx);
        const event = { listingId: listing.id, country, version: listing.version };
        await recordIndexEvent(tx, event);
        return { event, result: listing.id };
      });
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

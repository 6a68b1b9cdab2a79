// The one unit of work of every listing workflow (update, delete, claims, suppression, offers,
// images, reviews). One transaction locks the listing row, applies the ownership rule and the
// If-Match precondition under the lock, runs the workflow and records the change it names for the
// change feed (docs/contract.md §14); when the change is part of what the index shows, it also
// moves the listing to its next version (unless the workflow's own statement did), records the
// outbox event and the version's history row (§21). The event is published after commit (docs/architecture.md,
// "The write path": the outbox is the guarantee, the enqueue only saves latency). A create has its
// own entry, addListing: one statement that records the same, with no transaction.
//
// Every entry takes WriteOptions: the If-Match precondition, the door the write came through
// (recorded in the history), a dry run (everything runs, then rolls back), or the caller's own
// transaction (a bulk import applies each line inside the transaction that records its outcome).
import type { ChangeKind } from '../changes/change-kinds.js';
import { recordChange } from '../changes/changes-dal.js';
import type { WriteChannel } from '../changes/write-channels.js';
import type { Db, DbOrTx } from '../db/client.js';
import { isUniqueViolation } from '../db/pg-errors.js';
import { conflict, forbidden, notFound, preconditionFailed } from '../platform/errors.js';
import type { SyncListingJob } from '../outbox/jobs.js';
import type { PublishIndexEvents } from '../outbox/publisher.js';
import type { Caller } from '../partners/partners-service.js';
import { touchedFields, type ListingFieldValues } from './listing-diff.js';
import { findLiveListing } from './listing-reads-dal.js';
import type { ListingForView, ListingRow } from './listing-records.js';
import { lockLiveListing, lockLiveListingRecord, updateListingToNextVersion } from './listing-writes-dal.js';
import { isClaimedByOther } from './ownership.js';

/**
 * What a listing claimed by another partner means for a workflow (docs/contract.md §3): `forbidden`
 * (403) for changes of its content, `conflict` (409) for claiming or suppressing it, `none` for
 * workflows with a rule of their own (reviews).
 */
export type OwnershipRule = 'forbidden' | 'conflict' | 'none';

/** The versions an If-Match allows a write to apply to: any (`*`), or these. */
export type VersionPrecondition = 'any' | readonly number[];

export interface WriteOptions {
  /** If-Match: without it a write applies to whatever version it finds (last writer wins). */
  ifMatch?: VersionPrecondition | undefined;
  /** The door the write came through; by default `api`, `admin` for an admin's key. */
  channel?: WriteChannel | undefined;
  /** Run every check and statement, then roll back: the answer the write would give, nothing stored or published. */
  dryRun?: boolean | undefined;
  /**
   * Run inside the caller's transaction, in a savepoint of its own, so that a refused write leaves
   * that transaction usable. The caller commits; the write's index event is added to `events`,
   * for the caller to publish (ListingWrites.publish) once it has committed.
   */
  within?:
    | {
        tx: DbOrTx;
        events: SyncListingJob[];
        /**
         * A create (one statement) runs without the savepoint: one round trip instead of three. Its
         * failure then aborts the caller's transaction, which the caller must roll back and run
         * again with savepoints (the bulk import's runner does, indexer/import-runner.ts).
         */
        createWithoutSavepoint?: boolean;
      }
    | undefined;
}

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
  /**
   * The Listing fields the change touched, each with its value before as GET showed it: the
   * version's history (docs/contract.md §21). None when only the version moved (a website review).
   */
  before?: ListingFieldValues;
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

/** Throws 412 when `precondition` does not allow the listing's current `version` (docs/contract.md §20). */
export function assertPrecondition(precondition: VersionPrecondition | undefined, version: number): void {
  if (precondition === undefined || precondition === 'any' || precondition.includes(version)) return;
  throw preconditionFailed(version);
}

/** The door of a write: what the caller said, else the HTTP API with a partner's or an admin's key. */
export const channelOf = (caller: Caller, options: WriteOptions): WriteChannel => options.channel ?? (caller.role === 'admin' ? 'admin' : 'api');

/** The 409 of a write that lost a race on a unique key: a retry sees what the other one did. */
export const CONCURRENT_CHANGE = 'a concurrent request changed the same resource; retry';

/** Thrown out of a dry run's transaction to roll it back, carrying the answer the write gave. */
class DryRun<T> {
  constructor(readonly result: T) {}
}

export function createListingWrites({ db, publish }: { db: Db; publish: PublishIndexEvents }) {
  /**
   * Runs `work` in a transaction (a savepoint of the caller's, `within`) and commits it, then
   * publishes its event; a dry run rolls back instead and publishes nothing.
   */
  async function runUnit<T>(work: (tx: DbOrTx) => Promise<{ event?: SyncListingJob | undefined; result: T }>, options: WriteOptions): Promise<T> {
    let done: { event?: SyncListingJob | undefined; result: T };
    try {
      // On a transaction's handle, `transaction` opens a savepoint.
      const outer = (options.within?.tx ?? db) as Db;
      done = await outer.transaction(async (tx) => {
        const outcome = await work(tx);
        if (options.dryRun) throw new DryRun(outcome.result);
        return outcome;
      });
    } catch (err) {
      if (err instanceof DryRun) return err.result as T;
      throw err;
    }
    if (done.event) {
      if (options.within) options.within.events.push(done.event);
      else await publish([done.event]);
    }
    return done.result;
  }

  /** runUnit for a change of a listing: a unique violation (a concurrent twin) is a 409. */
  async function runChange<T>(work: (tx: DbOrTx) => Promise<{ event?: SyncListingJob | undefined; result: T }>, options: WriteOptions): Promise<T> {
    try {
      return await runUnit(work, options);
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict(CONCURRENT_CHANGE);
      throw err;
    }
  }

  /**
   * The unit of work once the listing is locked (`row` as locked): the ownership rule and the
   * precondition, the workflow, and the change it names with its version, outbox event and history.
   */
  async function applyChange<T>(
    tx: DbOrTx,
    caller: Caller,
    row: ListingRow,
    rule: OwnershipRule,
    options: WriteOptions,
    work: () => Promise<ListingChange<T>>,
  ): Promise<{ event?: SyncListingJob | undefined; result: T }> {
    const { id, country } = row;
    assertOwnership(row.claimedBy, caller, id, rule);
    assertPrecondition(options.ifMatch, row.version);
    const { result, change, visibleTo, movedTo, before = {} } = await work();
    const indexed = change !== null && movesVersion(change, visibleTo);
    // A version moved with no change recorded would reach neither the feed nor the index.
    if (movedTo !== undefined && !indexed) throw new Error(`a ${change ?? 'null'} change must not move the listing's version`);
    if (change === null) return { result };
    const version = indexed ? (movedTo ?? (await updateListingToNextVersion(tx, id))) : row.version;
    // After the change: a claim hands the listing to the caller; for `unclaimed` the feed keeps
    // the claimant before it (webhook scope `claimed`, docs/contract.md §15).
    const claimedBy = change === 'claimed' ? caller.partnerId : row.claimedBy;
    // An admin's takeover ends the previous claim: its partner learns of it as an `unclaimed`
    // (webhook scope `claimed` follows claimedBy), just before the new claimant's `claimed`.
    if (change === 'claimed' && row.claimedBy !== null && row.claimedBy !== caller.partnerId) {
      await recordChange(tx, { listingId: id, country, kind: 'unclaimed', version, claimedBy: row.claimedBy, fields: [] });
    }
    const fields = indexed ? touchedFields(before, true) : [];
    const moved = indexed ? { actorId: caller.partnerId, channel: channelOf(caller, options), before } : undefined;
    await recordChange(tx, { listingId: id, country, kind: change, version, claimedBy, visibleTo, fields }, moved);
    return { event: indexed ? { listingId: id, country, version } : undefined, result };
  }

  return {
    /** Publishes index events after their transaction committed: for a caller that ran writes `within` its own. */
    publish,

    /**
     * Locks the live listing `id` of `country` (404 without one), applies `rule` and `options.ifMatch`,
     * runs `fn` and records the change `fn` names (none when it names none), with a new version,
     * an outbox event and a history row when movesVersion says so. The checks must run under the
     * lock: a claim or a write committed in between would otherwise let a write land on a listing
     * that changed hands, or on a version its sender never saw.
     */
    changeListing<T>(caller: Caller, country: string, id: number, rule: OwnershipRule, fn: (tx: DbOrTx, row: ListingRow) => Promise<ListingChange<T>>, options: WriteOptions = {}): Promise<T> {
      return runChange(async (tx) => {
        const row = await lockLiveListing(tx, country, id);
        if (!row) throw notFound(`listing ${id}`);
        return applyChange(tx, caller, row, rule, options, () => fn(tx, row));
      }, options);
    },

    /**
     * changeListing for a write of the listing's content (PUT, PATCH, restore): rule `forbidden`,
     * and `fn` gets the listing as stored (lists and images) with the lock, in the same round trip.
     */
    changeListingContent<T>(caller: Caller, country: string, id: number, fn: (tx: DbOrTx, record: ListingForView) => Promise<ListingChange<T>>, options: WriteOptions = {}): Promise<T> {
      return runChange(async (tx) => {
        const record = await lockLiveListingRecord(tx, country, id);
        if (!record) throw notFound(`listing ${id}`);
        return applyChange(tx, caller, record.row, 'forbidden', options, () => fn(tx, record));
      }, options);
    },

    /**
     * Runs `insert`: one statement, committed on its own, that adds a listing at its first version
     * with its `created` change, outbox event and history row (insertCreatedListing), or adds
     * nothing and returns undefined. Publishes the event once it has committed; returns what
     * `insert` returned (the new listing), or undefined when nothing was added: refused, or beaten
     * to a unique key (a concurrent create that took the same source_id), which fails the statement
     * as a whole. The caller finds out which. A dry run, or a create `within` the caller's
     * transaction, runs the statement in a transaction (a savepoint) of its own.
     */
    async addListing<T extends { row: { id: number; version: number } }>(country: string, insert: (db: DbOrTx) => Promise<T | undefined>, options: WriteOptions = {}): Promise<T | undefined> {
      const own = !options.dryRun && !options.within;
      const { within } = options;
      try {
        if (own) {
          const added = await insert(db);
          if (added) await publish([{ listingId: added.row.id, country, version: added.row.version }]);
          return added;
        }
        if (within?.createWithoutSavepoint && !options.dryRun) {
          const added = await insert(within.tx);
          if (added) within.events.push({ listingId: added.row.id, country, version: added.row.version });
          return added;
        }
        return await runUnit(async (tx) => {
          const added = await insert(tx);
          return { result: added, event: added && { listingId: added.row.id, country, version: added.row.version } };
        }, options);
      } catch (err) {
        // Without a savepoint the caller's transaction is aborted: it must hear of it.
        if (isUniqueViolation(err) && !within?.createWithoutSavepoint) return undefined;
        throw err;
      }
    },

    /**
     * Runs `insert`, which adds a batch of listings in one statement (a bulk import's,
     * insertCreatedListings), in the caller's transaction and without a savepoint: a failure aborts
     * that transaction, as a create `within` it with createWithoutSavepoint does. Adds the index
     * event of each listing it added to the caller's events, and returns what `insert` returned.
     */
    async addListings<T extends { id: number; version: number } | undefined>(country: string, insert: (tx: DbOrTx) => Promise<T[]>, within: { tx: DbOrTx; events: SyncListingJob[] }): Promise<T[]> {
      const added = await insert(within.tx);
      for (const listing of added) if (listing) within.events.push({ listingId: listing.id, country, version: listing.version });
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

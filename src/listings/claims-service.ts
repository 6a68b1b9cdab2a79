// Claim, unclaim, suppress and unsuppress (docs/contract.md §3). Each real change bumps the
// listing version, reaches the index through the outbox and the change feed, and records the
// `claimed` or `suppressed` field it changed in the history; a repeated call changes nothing and
// records nothing. Each honours If-Match (docs/contract.md §20).
import type { Caller } from '../partners/partners-service.js';
import type { ListingWrites, WriteOptions } from './change-listing.js';
import { updateListingToNextVersion } from './listing-writes-dal.js';
import { setMapping } from './mappings-service.js';

export function createClaimsService({ writes }: { writes: Pick<ListingWrites, 'changeListing'> }) {
  return {
    /** Claims the listing for the caller; an admin takes over a listing claimed by anyone. */
    claim: (caller: Caller, country: string, id: number, sourceId?: string, options: WriteOptions = {}) =>
      writes.changeListing(
        caller,
        country,
        id,
        'conflict',
        async (tx, row) => {
          if (sourceId !== undefined) await setMapping(tx, caller, country, id, sourceId);
          if (row.claimedBy === caller.partnerId) return { result: undefined, change: null };
          // An admin's takeover leaves `claimed` true: only the version moves.
          const before = row.claimedBy === null ? { claimed: false } : {};
          return { result: undefined, change: 'claimed', movedTo: await updateListingToNextVersion(tx, id, { claimedBy: caller.partnerId }), before };
        },
        options,
      ),

    unclaim: (caller: Caller, country: string, id: number, options: WriteOptions = {}) =>
      writes.changeListing(
        caller,
        country,
        id,
        'forbidden',
        async (tx, row) => {
          if (row.claimedBy === null) return { result: undefined, change: null };
          return { result: undefined, change: 'unclaimed', movedTo: await updateListingToNextVersion(tx, id, { claimedBy: null }), before: { claimed: true } };
        },
        options,
      ),

    setSuppressed: (caller: Caller, country: string, id: number, suppressed: boolean, options: WriteOptions = {}) =>
      writes.changeListing(
        caller,
        country,
        id,
        'conflict',
        async (tx, row) => {
          if (row.suppressed === suppressed) return { result: undefined, change: null };
          return {
            result: undefined,
            change: suppressed ? 'suppressed' : 'unsuppressed',
            movedTo: await updateListingToNextVersion(tx, id, { suppressed }),
            before: { suppressed: !suppressed },
          };
        },
        options,
      ),
  };
}

export type ClaimsService = ReturnType<typeof createClaimsService>;

// Claim, unclaim, suppress and unsuppress (docs/contract.md §3). Each real change bumps the
// listing version, reaches the index through the outbox and the change feed; a repeated call
// changes nothing and records nothing.
import type { Caller } from '../partners/partners-service.js';
import type { ListingWrites } from './change-listing.js';
import { updateListingToNextVersion } from './listing-writes-dal.js';
import { setMapping } from './mappings-service.js';

export function createClaimsService({ writes }: { writes: Pick<ListingWrites, 'changeListing'> }) {
  return {
    /** Claims the listing for the caller; an admin takes over a listing claimed by anyone. */
    claim: (caller: Caller, country: string, id: number, sourceId?: string) =>
      writes.changeListing(caller, country, id, 'conflict', async (tx, row) => {
        if (sourceId !== undefined) await setMapping(tx, caller, country, id, sourceId);
        if (row.claimedBy === caller.partnerId) return { result: undefined, change: null };
        return { result: undefined, change: 'claimed', movedTo: await updateListingToNextVersion(tx, id, { claimedBy: caller.partnerId }) };
      }),

    unclaim: (caller: Caller, country: string, id: number) =>
      writes.changeListing(caller, country, id, 'forbidden', async (tx, row) => {
        if (row.claimedBy === null) return { result: undefined, change: null };
        return { result: undefined, change: 'unclaimed', movedTo: await updateListingToNextVersion(tx, id, { claimedBy: null }) };
      }),

    setSuppressed: (caller: Caller, country: string, id: number, suppressed: boolean) =>
      writes.changeListing(caller, country, id, 'conflict', async (tx, row) => {
        if (row.suppressed === suppressed) return { result: undefined, change: null };
        return { result: undefined, change: suppressed ? 'suppressed' : 'unsuppressed', movedTo: await updateListingToNextVersion(tx, id, { suppressed }) };
      }),
  };
}

export type ClaimsService = ReturnType<typeof createClaimsService>;

// Claim, unclaim, suppress and unsuppress (docs/contract.md §3). Each real change bumps the
// listing version and reaches the index through the outbox; a repeated call changes nothing.
import type { Caller } from '../partners/partners-service.js';
import type { ListingWrites } from './change-listing.js';
import { updateListing } from './listings-dal.js';
import { setMapping } from './mappings-service.js';

export function createClaimsService({ writes }: { writes: Pick<ListingWrites, 'changeListing'> }) {
  return {
    /** Claims the listing for the caller; an admin takes over a listing claimed by anyone. */
    claim: (caller: Caller, country: string, id: number, sourceId?: string) =>
      writes.changeListing(caller, country, id, 'conflict', async (tx, row) => {
        if (sourceId !== undefined) await setMapping(tx, caller, country, id, sourceId);
        const changed = row.claimedBy !== caller.partnerId;
        if (changed) await updateListing(tx, id, { claimedBy: caller.partnerId });
        return { result: undefined, changed };
      }),

    unclaim: (caller: Caller, country: string, id: number) =>
      writes.changeListing(caller, country, id, 'forbidden', async (tx, row) => {
        const changed = row.claimedBy !== null;
        if (changed) await updateListing(tx, id, { claimedBy: null });
        return { result: undefined, changed };
      }),

    setSuppressed: (caller: Caller, country: string, id: number, suppressed: boolean) =>
      writes.changeListing(caller, country, id, 'conflict', async (tx, row) => {
        const changed = row.suppressed !== suppressed;
        if (changed) await updateListing(tx, id, { suppressed });
        return { result: undefined, changed };
      }),
  };
}

export type ClaimsService = ReturnType<typeof createClaimsService>;

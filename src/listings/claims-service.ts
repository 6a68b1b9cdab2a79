// Claim, unclaim, suppress and unsuppress (CONTRACT section 3). Each real change bumps the
// listing version and reaches the index through the outbox; a repeated call changes nothing.
import { eq } from 'drizzle-orm';
import { listings } from '../db/schema.js';
import { conflict, forbidden } from '../errors.js';
import type { Caller } from '../partners/partners-service.js';
import type { ListingsService } from './listings-service.js';
import { isClaimedByOther } from './ownership.js';

export function createClaimsService({ listings: service }: { listings: Pick<ListingsService, 'writeListing' | 'lockListing' | 'setMapping'> }) {
  return {
    /** Claims the listing for the caller; an admin takes over a listing claimed by anyone. */
    claim: (caller: Caller, country: string, id: number, sourceId?: string) =>
      service.writeListing(country, async (tx) => {
        const row = await service.lockListing(tx, country, id);
        if (isClaimedByOther(row.claimedBy, caller)) throw conflict(`listing ${id} is claimed by another partner`);
        if (sourceId !== undefined) await service.setMapping(tx, caller, country, id, sourceId);
        const changed = row.claimedBy !== caller.partnerId;
        if (changed) await tx.update(listings).set({ claimedBy: caller.partnerId }).where(eq(listings.id, id));
        return { listingId: id, result: undefined, changed };
      }),

    unclaim: (caller: Caller, country: string, id: number) =>
      service.writeListing(country, async (tx) => {
        const row = await service.lockListing(tx, country, id);
        if (isClaimedByOther(row.claimedBy, caller)) throw forbidden(`listing ${id} is claimed by another partner`);
        const changed = row.claimedBy !== null;
        if (changed) await tx.update(listings).set({ claimedBy: null }).where(eq(listings.id, id));
        return { listingId: id, result: undefined, changed };
      }),

    setSuppressed: (caller: Caller, country: string, id: number, suppressed: boolean) =>
      service.writeListing(country, async (tx) => {
        const row = await service.lockListing(tx, country, id);
        if (isClaimedByOther(row.claimedBy, caller)) throw conflict(`listing ${id} is claimed by another partner`);
        const changed = row.suppressed !== suppressed;
        if (changed) await tx.update(listings).set({ suppressed }).where(eq(listings.id, id));
        return { listingId: id, result: undefined, changed };
      }),
  };
}

export type ClaimsService = ReturnType<typeof createClaimsService>;

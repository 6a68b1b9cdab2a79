// The offer of a listing (CONTRACT section 7). Offers are not shown in searches, so they change
// no version and write no outbox event.
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { offers } from '../db/schema.js';
import { forbidden, notFound } from '../errors.js';
import type { Caller } from '../partners/partners-service.js';
import { findLiveListing } from './listings-repository.js';
import { isClaimedByOther } from './ownership.js';

export interface Offer {
  message: string;
  url: string;
}

export function createOffersService({ db }: { db: Db }) {
  async function assertMayChange(caller: Caller, country: string, id: number) {
    const row = await findLiveListing(db, country, id);
    if (isClaimedByOther(row.claimedBy, caller)) throw forbidden(`listing ${id} is claimed by another partner`);
  }

  return {
    async put(caller: Caller, country: string, id: number, offer: Offer): Promise<void> {
      await assertMayChange(caller, country, id);
      await db.insert(offers).values({ listingId: id, ...offer })
        .onConflictDoUpdate({ target: offers.listingId, set: { ...offer, updatedAt: new Date() } });
    },

    async get(country: string, id: number): Promise<Offer> {
      await findLiveListing(db, country, id);
      const [offer] = await db.select({ message: offers.message, url: offers.url }).from(offers).where(eq(offers.listingId, id));
      if (!offer) throw notFound(`offer of listing ${id}`);
      return offer;
    },

    async remove(caller: Caller, country: string, id: number): Promise<void> {
      await assertMayChange(caller, country, id);
      await db.delete(offers).where(eq(offers.listingId, id));
    },
  };
}

export type OffersService = ReturnType<typeof createOffersService>;

// The offer of a listing (CONTRACT section 7). Offers are not shown in searches, so they change
// no version and write no outbox event; they still hold the listing row like every other write.
import { eq } from 'drizzle-orm';
import type { Db, DbOrTx } from '../db/client.js';
import { offers } from '../db/schema.js';
import { notFound } from '../errors.js';
import type { Caller } from '../partners/partners-service.js';
import type { Offer } from '../schemas/workflows.js';
import { findLiveListing } from './listings-repository.js';
import type { ListingsService } from './listings-service.js';

export function createOffersService({ db, listings }: { db: Db; listings: Pick<ListingsService, 'lockForChange'> }) {
  const changeOffer = (caller: Caller, country: string, id: number, write: (tx: DbOrTx) => Promise<unknown>) =>
    db.transaction(async (tx) => {
      await listings.lockForChange(tx, caller, country, id);
      await write(tx);
    });

  return {
    put: (caller: Caller, country: string, id: number, offer: Offer): Promise<void> =>
      changeOffer(caller, country, id, (tx) => tx.insert(offers).values({ listingId: id, ...offer })
        .onConflictDoUpdate({ target: offers.listingId, set: { ...offer, updatedAt: new Date() } })),

    async get(country: string, id: number): Promise<Offer> {
      await findLiveListing(db, country, id);
      const [offer] = await db.select({ message: offers.message, url: offers.url }).from(offers).where(eq(offers.listingId, id));
      if (!offer) throw notFound(`offer of listing ${id}`);
      return offer;
    },

    remove: (caller: Caller, country: string, id: number): Promise<void> =>
      changeOffer(caller, country, id, (tx) => tx.delete(offers).where(eq(offers.listingId, id))),
  };
}

export type OffersService = ReturnType<typeof createOffersService>;

// The offer of a listing (docs/contract.md §7). Offers are not shown in searches, but the index
// document says whether a listing has one (`has_offer`, for analysts), so setting or deleting one
// moves the listing's version and reaches the index like every other write (change-listing.ts,
// movesVersion); it honours If-Match and appears in the change feed.
import type { Db } from '../db/client.js';
import { notFound } from '../platform/errors.js';
import type { Caller } from '../partners/partners-service.js';
import type { Offer } from '../schemas/workflows.js';
import type { ListingWrites, WriteOptions } from './change-listing.js';
import { findLiveListing } from './listing-reads-dal.js';
import { deleteOffer, findOffer, upsertOffer } from './offers-dal.js';

export function createOffersService({ db, writes }: { db: Db; writes: Pick<ListingWrites, 'changeListing'> }) {
  return {
    put: (caller: Caller, country: string, id: number, offer: Offer, options: WriteOptions = {}): Promise<void> =>
      writes.changeListing(
        caller,
        country,
        id,
        'forbidden',
        async (tx) => {
          await upsertOffer(tx, id, offer);
          return { result: undefined, change: 'offer_set' };
        },
        options,
      ),

    async get(country: string, id: number): Promise<Offer> {
      await findLiveListing(db, country, id);
      const offer = await findOffer(db, id);
      if (!offer) throw notFound(`offer of listing ${id}`);
      return offer;
    },

    remove: (caller: Caller, country: string, id: number, options: WriteOptions = {}): Promise<void> =>
      writes.changeListing(
        caller,
        country,
        id,
        'forbidden',
        async (tx) => {
          // Deleting an absent offer is idempotent (204) and, having changed nothing, records nothing.
          return { result: undefined, change: (await deleteOffer(tx, id)) ? 'offer_deleted' : null };
        },
        options,
      ),
  };
}

export type OffersService = ReturnType<typeof createOffersService>;

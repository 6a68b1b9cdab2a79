// The listing rules: validate, write the row and its sub-objects through the one unit of work
// (change-listing.ts), which versions the change and publishes it. Reads come from PostgreSQL
// (read-your-writes, docs/contract.md §12).
import type { Db, DbOrTx } from '../db/client.js';
import { knownCategoryIds } from '../categories/categories-dal.js';
import { notFound, validationError } from '../errors.js';
import { markListingFilesForCleanup } from '../media/media-files-dal.js';
import type { Caller } from '../partners/partners-service.js';
import type { ListingInput } from '../schemas/listing.js';
import type { ListingWrites } from './change-listing.js';
import { toListing, type Listing, type PublicUrls } from './listing-view.js';
import {
  deleteMappingsOf, insertListing, loadListingRecord, replaceSubObjects, subObjectIds, updateListing, type ListingRow, type SubObjectRows,
} from './listings-dal.js';
import { setMapping } from './mappings-service.js';
import { validateListingInput } from './validate-listing.js';

export interface ListingsServiceDeps {
  db: Db;
  writes: Pick<ListingWrites, 'changeListing' | 'addListing'>;
  urls: PublicUrls;
}

/** The sub-object rows of a listing; items that carry an id keep it when `keepIds`. */
function subObjectRows(listingId: number, country: string, input: ListingInput, keepIds: boolean): SubObjectRows {
  const keep = (id: string | undefined) => (keepIds && id !== undefined ? { id: Number(id) } : {});
  return {
    emails: (input.emails ?? []).map((e, position) => ({ ...keep(e.id), listingId, position, address: e.address })),
    phones: (input.phones ?? []).map((p, position) => ({ ...keep(p.id), listingId, position, type: p.type, number: p.number })),
    links: (input.links ?? []).map((l, position) => ({ ...keep(l.id), listingId, position, type: l.type, url: l.url })),
    categories: input.categories.map((c, position) => ({ listingId, position, country, categoryId: c.id })),
  };
}

function listingFields(input: ListingInput, hours: ListingRow['hours']) {
  return {
    name: input.name,
    address: input.address,
    zip: input.zip,
    place: input.place,
    latitude: input.latitude ?? null,
    longitude: input.longitude ?? null,
    keywords: input.keywords ?? [],
    description: input.description ?? null,
    hours,
    contact: input.contact ?? null,
    active: input.active ?? true,
  };
}

const categoryIdsOf = (input: ListingInput) => input.categories.map((c) => c.id);

export function createListingsService({ db, writes, urls }: ListingsServiceDeps) {
  async function readOrThrow(tx: DbOrTx, country: string, id: number, withImages = true): Promise<Listing> {
    const record = await loadListingRecord(tx, id);
    if (!record || record.row.country !== country || record.row.deletedAt) throw notFound(`listing ${id}`);
    return toListing(record, urls, { withImages });
  }

  return {
    async get(country: string, id: number): Promise<Listing> {
      return readOrThrow(db, country, id);
    },

    async create(caller: Caller, country: string, input: ListingInput): Promise<Listing> {
      const id = await writes.addListing(country, async (tx) => {
        const { errors, hours } = validateListingInput(input, {
          country,
          knownCategoryIds: await knownCategoryIds(tx, country, categoryIdsOf(input)),
          existingSubIds: { emails: new Set(), phones: new Set(), links: new Set() },
          keepSubIds: false,
        });
        if (errors.length) throw validationError(errors);
        const listing = await insertListing(tx, {
          ...listingFields(input, hours),
          country,
          createdBy: caller.partnerId,
          claimedBy: caller.partnerId, // the creator claims a new listing (docs/listings-api.md)
          version: 1,
        });
        await replaceSubObjects(tx, listing.id, subObjectRows(listing.id, country, input, false));
        if (input.source_id !== undefined) await setMapping(tx, caller, country, listing.id, input.source_id);
        return listing;
      });
      return readOrThrow(db, country, id, false); // the create response carries no images
    },

    async update(caller: Caller, country: string, id: number, input: ListingInput): Promise<Listing> {
      await writes.changeListing(caller, country, id, 'forbidden', async (tx) => {
        const { errors, hours } = validateListingInput(input, {
          country,
          knownCategoryIds: await knownCategoryIds(tx, country, categoryIdsOf(input)),
          existingSubIds: await subObjectIds(tx, id),
          keepSubIds: true,
        });
        if (errors.length) throw validationError(errors);
        await updateListing(tx, id, listingFields(input, hours));
        await replaceSubObjects(tx, id, subObjectRows(id, country, input, true));
        if (input.source_id !== undefined) await setMapping(tx, caller, country, id, input.source_id);
        return { result: undefined, change: 'updated' };
      });
      return readOrThrow(db, country, id);
    },

    async remove(caller: Caller, country: string, id: number): Promise<void> {
      await writes.changeListing(caller, country, id, 'forbidden', async (tx) => {
        // Soft delete: the row keeps its growing version, which the indexer deletes with.
        await updateListing(tx, id, { deletedAt: new Date() });
        await deleteMappingsOf(tx, id);
        // Its image files stop being served now (only live listings' images are) and are removed
        // later, unless another listing shares them.
        await markListingFilesForCleanup(tx, id);
        return { result: undefined, change: 'deleted' };
      });
    },
  };
}

export type ListingsService = ReturnType<typeof createListingsService>;

// The listing rules: validate, write the row and its sub-objects through the one unit of work
// (change-listing.ts), which versions the change and publishes it. Reads come from PostgreSQL
// (read-your-writes, docs/contract.md §12).
import type { Db } from '../db/client.js';
import { knownCategoryIds } from '../categories/categories-dal.js';
import { conflict, notFound, validationError } from '../platform/errors.js';
import { markListingFilesForCleanup } from '../media/media-files-dal.js';
import type { Caller } from '../partners/partners-service.js';
import type { ListingInput } from '../schemas/listing.js';
import { CONCURRENT_CHANGE, type ListingWrites } from './change-listing.js';
import { toListing, type Listing, type PublicUrls } from './listing-view.js';
import { prepareListingForViewRead } from './listing-reads-dal.js';
import { clearSubObjects, insertCreatedListing, replaceListing, updateListingToNextVersion, type ListingContent, type SubObjects } from './listing-writes-dal.js';
import { deleteMappingsOf } from './mappings-dal.js';
import { refuseTakenSourceId, setMapping } from './mappings-service.js';
import { validateListingInput, type NormalisedHours } from './validate-listing.js';

export interface ListingsServiceDeps {
  db: Db;
  writes: Pick<ListingWrites, 'changeListing' | 'addListing'>;
  urls: PublicUrls;
}

const categoryIdsOf = (input: ListingInput) => input.categories.map((c) => c.id);

/** The sub-objects of a listing; items that carry an id keep it when `keepIds`. */
function subObjectsOf(input: ListingInput, keepIds: boolean): SubObjects {
  const keep = (id: string | undefined) => (keepIds && id !== undefined ? { id: Number(id) } : {});
  return {
    emails: (input.emails ?? []).map((e) => ({ ...keep(e.id), address: e.address })),
    phones: (input.phones ?? []).map((p) => ({ ...keep(p.id), type: p.type, number: p.number })),
    links: (input.links ?? []).map((l) => ({ ...keep(l.id), type: l.type, url: l.url })),
    categoryIds: categoryIdsOf(input),
  };
}

function listingFields(input: ListingInput, { hours, specialHours, timeZone }: NormalisedHours): ListingContent {
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
    // Omitted on PUT = cleared (docs/contract.md §18); a null zone reads as the country's default.
    specialHours,
    temporarilyClosed: input.temporarily_closed ?? null,
    timeZone: timeZone ?? null,
    contact: input.contact ?? null,
    active: input.active ?? true,
  };
}

export function createListingsService({ db, writes, urls }: ListingsServiceDeps) {
  const loadListingForView = prepareListingForViewRead(db);

  /** Reads on the database itself, after any transaction committed: what a new request would see. */
  async function readOrThrow(country: string, id: number): Promise<Listing> {
    const record = await loadListingForView(id);
    if (!record || record.row.country !== country || record.row.deletedAt) throw notFound(`listing ${id}`);
    return toListing(record, urls);
  }

  return {
    async get(country: string, id: number): Promise<Listing> {
      return readOrThrow(country, id);
    },

    async create(caller: Caller, country: string, input: ListingInput): Promise<Listing> {
      const validate = (known: ReadonlySet<string>) => validateListingInput(input, {
        country,
        knownCategoryIds: known,
        existingSubIds: { emails: new Set(), phones: new Set(), links: new Set() },
        keepSubIds: false,
      });
      // The categories are checked by the insert, which adds nothing unless all are known (no lookup first).
      const { errors, ...normalised } = validate(new Set(categoryIdsOf(input)));
      const sourceId = input.source_id ?? null;
      const created = errors.length ? undefined : await writes.addListing(country, (db) => insertCreatedListing(db, {
        ...listingFields(input, normalised),
        country,
        createdBy: caller.partnerId,
        claimedBy: caller.partnerId, // the creator claims a new listing (docs/listings-api.md)
        version: 1,
      }, subObjectsOf(input, false), sourceId));
      if (created === undefined) {
        // Refused, and nothing written. The 400 lists every error at once, unknown categories
        // included: checked against the categories table, read only on this path.
        const { errors: all } = validate(await knownCategoryIds(db, country, categoryIdsOf(input)));
        if (all.length) throw validationError(all);
        if (sourceId !== null) await refuseTakenSourceId(db, caller, sourceId);
        throw conflict(CONCURRENT_CHANGE); // a category or a mapping changed in between
      }
      // The listing as the statement stored it: the same as a read after the commit would find.
      return toListing(created, urls, { withImages: false }); // the create response carries no images
    },

    async update(caller: Caller, country: string, id: number, input: ListingInput): Promise<Listing> {
      const updated = await writes.changeListing(caller, country, id, 'forbidden', async (tx) => {
        // Two statements: the first clears the sub-objects and returns what validation needs (the
        // ids they had, the known categories); a refused update rolls back.
        const { subIds, knownCategoryIds: known } = await clearSubObjects(tx, id, country, categoryIdsOf(input));
        const { errors, ...normalised } = validateListingInput(input, { country, knownCategoryIds: known, existingSubIds: subIds, keepSubIds: true });
        if (errors.length) throw validationError(errors);
        const record = await replaceListing(tx, id, country, listingFields(input, normalised), subObjectsOf(input, true));
        if (input.source_id !== undefined) await setMapping(tx, caller, country, id, input.source_id);
        return { result: record, change: 'updated', movedTo: record.row.version };
      });
      // The listing as the update stored it: what a read after the commit would find, with no read.
      return toListing(updated, urls);
    },

    async remove(caller: Caller, country: string, id: number): Promise<void> {
      await writes.changeListing(caller, country, id, 'forbidden', async (tx) => {
        // Soft delete: the row keeps its growing version, which the indexer deletes with.
        const movedTo = await updateListingToNextVersion(tx, id, { deletedAt: new Date() });
        await deleteMappingsOf(tx, id);
        // Its image files stop being served now (only live listings' images are) and are removed
        // later, unless another listing shares them.
        await markListingFilesForCleanup(tx, id);
        return { result: undefined, change: 'deleted', movedTo };
      });
    },
  };
}

export type ListingsService = ReturnType<typeof createListingsService>;

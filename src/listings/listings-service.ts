// The listing rules: validate, write the row and its sub-objects through the one unit of work
// (change-listing.ts), which versions the change, records its history and publishes it. Reads come
// from PostgreSQL (read-your-writes, docs/contract.md §12). PUT, PATCH and restore are one content
// write: each makes the PUT body it stands for, and a write that would change nothing the listing
// shows commits nothing (docs/contract.md §20).
import type { Db, DbOrTx } from '../db/client.js';
import { knownCategoryIds } from '../categories/categories-dal.js';
import { conflict, notFound, validationError } from '../platform/errors.js';
import { markListingFilesForCleanup } from '../media/media-files-dal.js';
import type { Caller } from '../partners/partners-service.js';
import type { ListingInput } from '../schemas/listing.js';
import { channelOf, CONCURRENT_CHANGE, type ListingWrites, type WriteOptions } from './change-listing.js';
import { changedFields, changesNothing, keptLists, SUB_OBJECT_LISTS } from './listing-diff.js';
import { listingsAtVersions } from './listing-history.js';
import { readListingWithHistory } from './listing-history-dal.js';
import { patchedListing, restoredListing } from './listing-put-body.js';
import type { ListingForView } from './listing-records.js';
import { toContentView, toListing, toPreview, type Listing, type ListingPreview, type PublicUrls } from './listing-view.js';
import { loadListingsForView, prepareListingForViewRead } from './listing-reads-dal.js';
import { clearSubObjects, insertCreatedListing, replaceListing, updateListingToNextVersion, type ListingContent, type SubObjects } from './listing-writes-dal.js';
import { deleteMappingsOf } from './mappings-dal.js';
import { isClaimedByOther } from './ownership.js';
import { refuseTakenSourceId, setMapping } from './mappings-service.js';
import { validateListingInput, type NormalisedHours } from './validate-listing.js';
import { insertCreatedListings, type BatchedCreate, type CreatedVersion } from './batch-create-dal.js';
import type { SyncListingJob } from '../outbox/jobs.js';
import type { WriteChannel } from '../changes/write-channels.js';

export interface ListingsServiceDeps {
  db: Db;
  writes: Pick<ListingWrites, 'changeListing' | 'changeListingContent' | 'addListing' | 'addListings'>;
  urls: PublicUrls;
}

/** What a write answers for `options`: the listing as stored, or a dry run's preview. */
export type WrittenListing<O extends WriteOptions> = O extends { dryRun: true } ? ListingPreview : O extends { dryRun?: false | undefined } ? Listing : Listing | ListingPreview;

/** What a content write answers: the listing as stored (a preview on a dry run), and whether the write changed it. */
export interface ListingWriteResult {
  listing: Listing | ListingPreview;
  /** False when the listing already was what the write asked for: nothing was stored or emitted. */
  changed: boolean;
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

/**
 * `input`, a PUT body, against the listing as stored: checked with the stored categories as the
 * known ones, and whether it would change nothing the listing shows. That check stands when every
 * category the body names is one of the stored ones (`categoriesStored`); otherwise a body that
 * changes something is checked again with the categories the database knows (`check`).
 */
function compareWithStored(record: ListingForView, current: Listing, input: ListingInput, country: string) {
  const subs = subObjectsOf(input, true);
  const storedCategoryIds = new Set(record.categories.map((c) => c.id));
  const check = (known: ReadonlySet<string>) =>
    validateListingInput(input, {
      country,
      knownCategoryIds: known,
      keepSubIds: true,
      existingSubIds: { emails: new Set(record.emails.map((e) => e.id)), phones: new Set(record.phones.map((p) => p.id)), links: new Set(record.links.map((l) => l.id)) },
    });
  const asStored = check(storedCategoryIds);
  const view = toContentView(listingFields(input, asStored), subs, country);
  const categoriesStored = categoryIdsOf(input).every((categoryId) => storedCategoryIds.has(categoryId));
  return { subs, check, asStored, categoriesStored, view, unchanged: asStored.errors.length === 0 && changesNothing(current, view) };
}

/**
 * A new listing of `input`, claimed by its creator (docs/listings-api.md): `validate` checks it
 * against the categories given as known; `batched` is what the insert writes, undefined when the
 * input is invalid even with every category it names known. The categories are checked by the
 * insert, which adds nothing unless all are known (no lookup first).
 */
function newListing(caller: Caller, country: string, input: ListingInput) {
  const validate = (known: ReadonlySet<string>) =>
    validateListingInput(input, {
      country,
      knownCategoryIds: known,
      existingSubIds: { emails: new Set(), phones: new Set(), links: new Set() },
      keepSubIds: false,
    });
  const { errors, ...normalised } = validate(new Set(categoryIdsOf(input)));
  const batched: BatchedCreate | undefined = errors.length
    ? undefined
    : {
        values: { ...listingFields(input, normalised), country, createdBy: caller.partnerId, claimedBy: caller.partnerId, version: 1 },
        subs: subObjectsOf(input, false),
        sourceId: input.source_id ?? null,
      };
  return { validate, batched };
}

export function createListingsService({ db, writes, urls }: ListingsServiceDeps) {
  const loadListingForView = prepareListingForViewRead(db);

  /** Reads on the database itself, after any transaction committed: what a new request would see. */
  async function readOrThrow(country: string, id: number): Promise<Listing> {
    const record = await loadListingForView(id);
    if (!record || record.row.country !== country || record.row.deletedAt) throw notFound(`listing ${id}`);
    return toListing(record, urls);
  }

  /**
   * The one content write: under the lock, `bodyFor` makes the PUT body from the listing as stored;
   * the body is checked and compared with the stored listing first, and only a body that changes
   * something the listing shows is written, as a new version whose history holds what it changed.
   */
  async function writeContent(
    caller: Caller,
    country: string,
    id: number,
    bodyFor: (current: Listing, tx: DbOrTx) => ListingInput | Promise<ListingInput>,
    options: WriteOptions,
  ): Promise<ListingWriteResult> {
    let stored: Listing | undefined;
    const { listing, changed } = await writes.changeListingContent(
      caller,
      country,
      id,
      async (tx, record) => {
        const current = toListing(record, urls);
        stored = current;
        const input = await bodyFor(current, tx);
        const { subs, check, asStored, categoriesStored, view, unchanged } = compareWithStored(record, current, input, country);
        if (unchanged) {
          if (input.source_id !== undefined) await setMapping(tx, caller, country, id, input.source_id);
          return { result: { listing: current, changed: false }, change: null };
        }
        if (categoriesStored && asStored.errors.length) throw validationError(asStored.errors);
        // The lists the body leaves as they are keep their rows. The others are cleared first, in
        // a statement that also looks up categories the listing does not have yet (a refused
        // update rolls back); with nothing to clear or look up, the update is one statement.
        const kept = keptLists(current, view);
        let checked = asStored;
        if (!categoriesStored) checked = check((await clearSubObjects(tx, id, country, categoryIdsOf(input), kept)).knownCategoryIds);
        else if (kept.size < SUB_OBJECT_LISTS.length) await clearSubObjects(tx, id, country, [], kept);
        const { errors, ...normalised } = checked;
        if (errors.length) throw validationError(errors);
        const written = await replaceListing(tx, record, listingFields(input, normalised), subs, kept);
        if (input.source_id !== undefined) await setMapping(tx, caller, country, id, input.source_id);
        // The listing as the update stored it: what a read after the commit would find, with no read.
        const after = toListing(written, urls);
        return { result: { listing: after, changed: true }, change: 'updated', movedTo: written.row.version, before: changedFields(current, after) };
      },
      options,
    );
    return { listing: options.dryRun && changed ? toPreview(listing, stored) : listing, changed };
  }

  return {
    async get(country: string, id: number): Promise<Listing> {
      return readOrThrow(country, id);
    },

    /** Creates a listing claimed by the caller; a dry run answers it as toPreview shows it. */
    async create<O extends WriteOptions = { dryRun?: false }>(caller: Caller, country: string, input: ListingInput, options?: O): Promise<WrittenListing<O>> {
      const { validate, batched } = newListing(caller, country, input);
      const sourceId = input.source_id ?? null;
      const created = batched && (await writes.addListing(country, (db) => insertCreatedListing(db, batched.values, batched.subs, sourceId, channelOf(caller, options ?? {})), options));
      if (created === undefined) {
        // Refused, and nothing written. The 400 lists every error at once, unknown categories
        // included: checked against the categories table, read only on this path.
        const { errors: all } = validate(await knownCategoryIds(db, country, categoryIdsOf(input)));
        if (all.length) throw validationError(all);
        if (sourceId !== null) await refuseTakenSourceId(db, caller, sourceId);
        throw conflict(CONCURRENT_CHANGE); // a category or a mapping changed in between
      }
      // The listing as the statement stored it: the same as a read after the commit would find.
      const listing = toListing(created, urls, { withImages: false }); // the create response carries no images
      return (options?.dryRun ? toPreview(listing) : listing) as WrittenListing<O>;
    },

    /**
     * `create` for a batch, in one statement within the caller's transaction and without a
     * savepoint (a bulk import's batch, indexer/import-runner.ts): for each input, the id and first
     * version of the listing it created, or undefined where it created none (invalid, an unknown
     * category, a source_id already mapped). The caller sends those through `create`, which
     * answers why. A failure in the database aborts the caller's transaction.
     */
    async createMany(
      caller: Caller,
      country: string,
      inputs: readonly ListingInput[],
      within: { tx: DbOrTx; events: SyncListingJob[] },
      channel: WriteChannel,
    ): Promise<(CreatedVersion | undefined)[]> {
      const batch = inputs.map((input) => newListing(caller, country, input).batched);
      const valid = batch.flatMap((item) => (item ? [item] : []));
      const created = await writes.addListings(country, (tx) => insertCreatedListings(tx, valid, channel), within);
      let next = 0;
      return batch.map((item) => (item ? created[next++] : undefined));
    },

    /**
     * For each PUT body of a listing by id, the stored listing when the body would change nothing
     * and the caller may write it (else undefined): read in one query without a lock. A bulk import records
     * them as unchanged with no write at all; it sends the others through `update`, which compares
     * again under the lock, so a write that raced this read is never missed.
     */
    async unchangedByPut(tx: DbOrTx, caller: Caller, country: string, items: { id: number; input: ListingInput }[]): Promise<(Listing | undefined)[]> {
      const records = await loadListingsForView(tx, [...new Set(items.map((item) => item.id))]);
      return items.map(({ id, input }) => {
        const record = records.get(id);
        if (!record || record.row.country !== country || record.row.deletedAt || isClaimedByOther(record.row.claimedBy, caller)) return undefined;
        const current = toListing(record, urls);
        return compareWithStored(record, current, input, country).unchanged ? current : undefined;
      });
    },

    /** PUT: replaces the listing's content. */
    update(caller: Caller, country: string, id: number, input: ListingInput, options: WriteOptions = {}): Promise<ListingWriteResult> {
      return writeContent(caller, country, id, () => input, options);
    },

    /** PATCH: a JSON Merge Patch of the listing, written as the PUT of the merged listing (listing-put-body.ts). */
    patch(caller: Caller, country: string, id: number, patch: Record<string, unknown>, options: WriteOptions = {}): Promise<ListingWriteResult> {
      return writeContent(caller, country, id, (current) => patchedListing(current, patch), options);
    },

    /** Writes the content of `version` (rebuilt from the history, under the lock) as a new version. */
    restore(caller: Caller, country: string, id: number, version: number, options: WriteOptions = {}): Promise<ListingWriteResult> {
      return writeContent(
        caller,
        country,
        id,
        async (current, tx) => {
          const found = await readListingWithHistory(tx, id, version + 1, 1);
          const past = found && listingsAtVersions(current, found.rows).get(version);
          if (!past) throw notFound(`version ${version} of listing ${id}`);
          return restoredListing(past, current);
        },
        options,
      );
    },

    async remove(caller: Caller, country: string, id: number, options: WriteOptions = {}): Promise<void> {
      await writes.changeListing(
        caller,
        country,
        id,
        'forbidden',
        async (tx) => {
          // Soft delete: the row keeps its growing version, which the indexer deletes with.
          const movedTo = await updateListingToNextVersion(tx, id, { deletedAt: new Date() });
          await deleteMappingsOf(tx, id);
          // Its image files stop being served now (only live listings' images are) and are removed
          // later, unless another listing shares them.
          await markListingFilesForCleanup(tx, id);
          return { result: undefined, change: 'deleted', movedTo };
        },
        options,
      );
    },
  };
}

export type ListingsService = ReturnType<typeof createListingsService>;

// The listing write path: validate, write the row and its outbox event in one transaction,
// then publish the event. Reads come from PostgreSQL (read-your-writes, CONTRACT section 12).
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../db/client.js';
import { isUniqueViolation } from '../db/pg-errors.js';
import { categories, listingCategories, listingEmails, listingLinks, listingPhones, listings, mappings } from '../db/schema.js';
import { conflict, forbidden, notFound, validationError } from '../errors.js';
import type { PublishIndexEvents } from '../indexing/outbox.js';
import { recordIndexEvent } from '../indexing/outbox-dal.js';
import { markListingFilesForCleanup } from '../media/media-files-dal.js';
import type { Caller } from '../partners/partners-service.js';
import type { ListingInput } from '../schemas/listing.js';
import { toListing, type Listing, type PublicUrls } from './listing-view.js';
import { loadListingRecord, type ListingRow } from './listings-dal.js';
import { isClaimedByOther } from './ownership.js';
import { validateListingInput } from './validate-listing.js';

export interface ListingsServiceDeps {
  db: Db;
  publish: PublishIndexEvents;
  urls: PublicUrls;
}


export function createListingsService({ db, publish, urls }: ListingsServiceDeps) {
  async function knownCategoryIds(tx: DbOrTx, country: string, input: ListingInput): Promise<Set<string>> {
    const ids = input.categories.map((c) => c.id);
    const rows = await tx.select({ id: categories.id }).from(categories)
      .where(and(eq(categories.country, country), inArray(categories.id, ids)));
    return new Set(rows.map((r) => r.id));
  }

  /** Replaces the sub-objects of a listing; items that carry an id keep it. */
  async function writeChildren(tx: DbOrTx, listingId: number, country: string, input: ListingInput, keepIds: boolean) {
    // Sequential: one transaction is one connection, which runs one query at a time.
    await tx.delete(listingEmails).where(eq(listingEmails.listingId, listingId));
    await tx.delete(listingPhones).where(eq(listingPhones.listingId, listingId));
    await tx.delete(listingLinks).where(eq(listingLinks.listingId, listingId));
    await tx.delete(listingCategories).where(eq(listingCategories.listingId, listingId));
    const keep = (id: string | undefined) => (keepIds && id !== undefined ? { id: Number(id) } : {});
    const emails = (input.emails ?? []).map((e, position) => ({ ...keep(e.id), listingId, position, address: e.address }));
    const phones = (input.phones ?? []).map((p, position) => ({ ...keep(p.id), listingId, position, type: p.type, number: p.number }));
    const links = (input.links ?? []).map((l, position) => ({ ...keep(l.id), listingId, position, type: l.type, url: l.url }));
    const cats = input.categories.map((c, position) => ({ listingId, position, country, categoryId: c.id }));
    if (emails.length) await tx.insert(listingEmails).values(emails);
    if (phones.length) await tx.insert(listingPhones).values(phones);
    if (links.length) await tx.insert(listingLinks).values(links);
    await tx.insert(listingCategories).values(cats);
  }

  /** Sets the caller's mapping source_id → listing; a source_id already used for another listing is a conflict. */
  async function setMapping(tx: DbOrTx, caller: Caller, country: string, listingId: number, sourceId: string) {
    const [existing] = await tx.select({ listingId: mappings.listingId }).from(mappings)
      .where(and(eq(mappings.partnerId, caller.partnerId), eq(mappings.sourceId, sourceId)));
    if (existing && existing.listingId !== listingId) {
      throw conflict(`source_id "${sourceId}" already maps to listing ${existing.listingId}`, [`source_id: already used for listing ${existing.listingId}`]);
    }
    if (existing) return;
    // One mapping per partner and listing: a new source_id replaces the old one.
    await tx.delete(mappings).where(and(eq(mappings.partnerId, caller.partnerId), eq(mappings.listingId, listingId)));
    await tx.insert(mappings).values({ partnerId: caller.partnerId, sourceId, listingId, country });
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

  /** Locks a live listing of the country for a change, or throws 404. */
  async function lockListing(tx: DbOrTx, country: string, id: number): Promise<ListingRow> {
    const [row] = await tx.select().from(listings)
      .where(and(eq(listings.id, id), eq(listings.country, country), isNull(listings.deletedAt))).for('update');
    if (!row) throw notFound(`listing ${id}`);
    return row;
  }

  /**
   * Locks a live listing the caller may change (CONTRACT section 3), or throws 404 / 403. The
   * ownership check must run under the lock: a claim committed in between would otherwise let
   * another partner's write land on the newly claimed listing.
   */
  async function lockForChange(tx: DbOrTx, caller: Caller, country: string, id: number): Promise<ListingRow> {
    const row = await lockListing(tx, country, id);
    if (isClaimedByOther(row.claimedBy, caller)) throw forbidden(`listing ${id} is claimed by another partner`);
    return row;
  }

  async function readOrThrow(tx: DbOrTx, country: string, id: number, withImages = true): Promise<Listing> {
    const record = await loadListingRecord(tx, id);
    if (!record || record.row.country !== country || record.row.deletedAt) throw notFound(`listing ${id}`);
    return toListing(record, urls, { withImages });
  }

  /**
   * Runs `change` in a transaction that ends with an outbox event for the listing's new version,
   * then publishes the event. Every write that alters the indexed document goes through here.
   */
  async function writeListing<T>(
    country: string,
    change: (tx: DbOrTx) => Promise<{ listingId: number; result: T; changed?: boolean }>,
  ): Promise<T> {
    try {
      const { event, result } = await db.transaction(async (tx) => {
        const { listingId, result, changed = true } = await change(tx);
        if (!changed) return { event: undefined, result }; // an idempotent no-op: no new version
        const [bumped] = await tx.update(listings)
          .set({ version: sql`${listings.version} + 1`, updatedAt: new Date() })
          .where(eq(listings.id, listingId)).returning({ version: listings.version });
        const event = { listingId, country, version: bumped!.version };
        await recordIndexEvent(tx, event);
        return { event, result };
      });
      if (event) await publish([event]);
      return result;
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict('a concurrent request changed the same resource; retry');
      throw err;
    }
  }

  return {
    writeListing,
    lockListing,
    lockForChange,
    setMapping,

    async get(country: string, id: number): Promise<Listing> {
      return readOrThrow(db, country, id);
    },

    async create(caller: Caller, country: string, input: ListingInput): Promise<Listing> {
      const id = await writeListing(country, async (tx) => {
        const { errors, hours } = validateListingInput(input, {
          country,
          knownCategoryIds: await knownCategoryIds(tx, country, input),
          existingSubIds: { emails: new Set(), phones: new Set(), links: new Set() },
          keepSubIds: false,
        });
        if (errors.length) throw validationError(errors);
        const [row] = await tx.insert(listings).values({
          ...listingFields(input, hours),
          country,
          createdBy: caller.partnerId,
          claimedBy: caller.partnerId, // the creator claims a new listing (listings-api.md)
          version: 0, // bumped to 1 with the outbox event
        }).returning({ id: listings.id });
        await writeChildren(tx, row!.id, country, input, false);
        if (input.source_id !== undefined) await setMapping(tx, caller, country, row!.id, input.source_id);
        return { listingId: row!.id, result: row!.id };
      });
      return readOrThrow(db, country, id, false); // the create response carries no images
    },

    async update(caller: Caller, country: string, id: number, input: ListingInput): Promise<Listing> {
      await writeListing(country, async (tx) => {
        await lockForChange(tx, caller, country, id);
        const ids = async (table: typeof listingEmails | typeof listingPhones | typeof listingLinks) =>
          new Set((await tx.select({ id: table.id }).from(table).where(eq(table.listingId, id))).map((r) => r.id));
        const { errors, hours } = validateListingInput(input, {
          country,
          knownCategoryIds: await knownCategoryIds(tx, country, input),
          existingSubIds: { emails: await ids(listingEmails), phones: await ids(listingPhones), links: await ids(listingLinks) },
          keepSubIds: true,
        });
        if (errors.length) throw validationError(errors);
        await tx.update(listings).set(listingFields(input, hours)).where(eq(listings.id, id));
        await writeChildren(tx, id, country, input, true);
        if (input.source_id !== undefined) await setMapping(tx, caller, country, id, input.source_id);
        return { listingId: id, result: undefined };
      });
      return readOrThrow(db, country, id);
    },

    async remove(caller: Caller, country: string, id: number): Promise<void> {
      await writeListing(country, async (tx) => {
        await lockForChange(tx, caller, country, id);
        // Soft delete: the row keeps its growing version, which the indexer deletes with.
        await tx.update(listings).set({ deletedAt: new Date() }).where(eq(listings.id, id));
        await tx.delete(mappings).where(eq(mappings.listingId, id));
        // Its image files stop being served now (only live listings' images are) and are removed
        // later, unless another listing shares them.
        await markListingFilesForCleanup(tx, id);
        return { listingId: id, result: undefined };
      });
    },
  };
}

export type ListingsService = ReturnType<typeof createListingsService>;

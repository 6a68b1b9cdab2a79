import { eq } from 'drizzle-orm';
import t from 'tap';
import { buildListingDocument } from '../../indexer/listing-document.js';
import { outbox } from '../../src/db/schema.js';
import { build, eventually, INDEXED_WITHIN_MS, indexedDocument, listingInput, names, startIndexer } from '../helper.js';

const { app, deps, partner } = await build(t);
const { sync } = await startIndexer(t, deps);
const owner = await partner();

/** Ids of the listing that a search (not a real-time get) finds: proves it is searchable. */
async function searchable(id: string): Promise<boolean> {
  const res = await deps.opensearch.search({ index: names.listingsAlias('de'), body: { query: { term: { id: `de:${id}` } } } });
  return (res.body.hits.total as { value: number }).value === 1;
}

t.test('a created, updated and deleted listing ends up in OpenSearch exactly as PostgreSQL has it', async (t) => {
  // How fast is the benchmarks' question (bench/RESULTS.md: write → searchable p99); here: that it happens.
  const created = (await app.inject({ method: 'POST', url: '/de/listings', headers: owner.auth, payload: listingInput() })).json();
  await eventually(async () => ((await searchable(created.id)) ? true : undefined), INDEXED_WITHIN_MS, 'the new listing to be searchable');

  const read = (await app.inject({ url: `/de/listings/${created.id}`, headers: owner.auth })).json();
  const doc = await indexedDocument(deps, 'de', created.id);
  t.equal(doc?.version, 1);
  const { contact: _contact, ...withoutContact } = read;
  t.same(doc?.source.listing, withoutContact, 'the stored listing is the read listing without contact');
  t.equal(doc?.source.partner, (await deps.partners.authenticate(owner.auth.authorization.slice(7)))?.name);

  await app.inject({ method: 'PUT', url: `/de/listings/${created.id}`, headers: owner.auth, payload: listingInput({ name: 'Umbenannt', phones: [] }) });
  const updated = await eventually(
    async () => {
      const d = await indexedDocument(deps, 'de', created.id);
      return d && d.version === 2 ? d : undefined;
    },
    INDEXED_WITHIN_MS,
    'version 2',
  );
  t.equal(updated.source.name, 'Umbenannt');
  t.same(updated.source.phones, []);

  await app.inject({ method: 'DELETE', url: `/de/listings/${created.id}`, headers: owner.auth });
  await eventually(async () => ((await indexedDocument(deps, 'de', created.id)) === null ? true : undefined), INDEXED_WITHIN_MS, 'the deletion');
  // The worker marks an event done after OpenSearch took the write, so the mark can trail the deletion we saw.
  const events = await eventually(
    async () => {
      const rows = await deps.database.db
        .select()
        .from(outbox)
        .where(eq(outbox.listingId, Number(created.id)));
      return rows.every((row) => row.processedAt !== null) ? rows : undefined;
    },
    5000,
    'every outbox event of the listing to be done',
  );
  t.equal(events.length, 3, 'one outbox event for each of create, update and delete');
});

t.test('a job replayed with an older version changes nothing', async (t) => {
  const created = (await app.inject({ method: 'POST', url: '/de/listings', headers: owner.auth, payload: listingInput() })).json();
  await app.inject({ method: 'PUT', url: `/de/listings/${created.id}`, headers: owner.auth, payload: listingInput({ name: 'Version zwei' }) });
  const current = await eventually(
    async () => {
      const d = await indexedDocument(deps, 'de', created.id);
      return d?.version === 2 ? d : undefined;
    },
    INDEXED_WITHIN_MS,
    'version 2',
  );

  t.equal(await sync({ listingId: Number(created.id), country: 'de', version: 1 }), 'stale', 'replaying job v1 is refused as stale');
  // A late writer holding the old document cannot overwrite the newer one either.
  const old = buildListingDocument({
    listing: { ...created, name: 'Version eins' },
    partnerName: 'x',
    suppressed: false,
    boost: 1,
    version: 1,
    updatedAt: new Date(0),
    createdAt: new Date(0),
    claimantName: null,
    hasOffer: false,
  });
  const late = await deps.opensearch.index({ index: names.listingsAlias('de'), id: `de:${created.id}`, body: old, version: 1, version_type: 'external' }, { ignore: [409] });
  t.equal(late.statusCode, 409);
  const after = await indexedDocument(deps, 'de', created.id);
  t.same(after, current, 'the document is unchanged');
});

t.test('a late job for a deleted listing does not bring it back', async (t) => {
  const created = (await app.inject({ method: 'POST', url: '/de/listings', headers: owner.auth, payload: listingInput() })).json();
  await eventually(async () => indexedDocument(deps, 'de', created.id).then((d) => d ?? undefined), INDEXED_WITHIN_MS, 'indexing');
  await app.inject({ method: 'DELETE', url: `/de/listings/${created.id}`, headers: owner.auth });
  await eventually(async () => ((await indexedDocument(deps, 'de', created.id)) === null ? true : undefined), INDEXED_WITHIN_MS, 'the deletion');

  // The soft-deleted row keeps its version, so a replay repeats the delete (refused as stale)
  // instead of re-indexing the listing.
  t.equal(await sync({ listingId: Number(created.id), country: 'de', version: 1 }), 'stale');
  const stale = buildListingDocument({
    listing: { ...created },
    partnerName: 'x',
    suppressed: false,
    boost: 1,
    version: 1,
    updatedAt: new Date(0),
    createdAt: new Date(0),
    claimantName: null,
    hasOffer: false,
  });
  const late = await deps.opensearch.index({ index: names.listingsAlias('de'), id: `de:${created.id}`, body: stale, version: 1, version_type: 'external' }, { ignore: [409] });
  t.equal(late.statusCode, 409, 'the tombstone (index.gc_deletes 1h) refuses an older version');
  t.equal(await indexedDocument(deps, 'de', created.id), null);
});

t.test('a write whose enqueue failed still reaches OpenSearch through the outbox relay', async (t) => {
  const broken = await build(t, {
    queue: {
      enqueue: async () => {
        throw new Error('redis is down');
      },
    },
  });
  const brokenOwner = await broken.partner();
  const res = await broken.app.inject({ method: 'POST', url: '/de/listings', headers: brokenOwner.auth, payload: listingInput({ name: 'Relayed' }) });
  t.equal(res.statusCode, 201, 'the write is acknowledged: it is committed with its outbox event');
  const doc = await eventually(() => indexedDocument(deps, 'de', res.json().id).then((d) => d ?? undefined), 5000, 'the relay');
  t.equal(doc.source.name, 'Relayed');
});

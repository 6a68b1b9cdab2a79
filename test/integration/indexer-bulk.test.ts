import { and, count, eq, inArray, isNull, sql } from 'drizzle-orm';
import t from 'tap';
import { listings, outbox } from '../../src/db/schema.js';
import { build, eventually, indexedDocument, listingInput, names, runId, startIndexer } from '../helper.js';

const { app, deps, partner } = await build(t);
const { sync, worker } = await startIndexer(t, deps);
const owner = await partner();

/** The indexer's `_bulk` requests so far and the listings they carried (its index_bulk_items histogram). */
async function bulkTotals(): Promise<{ requests: number; listings: number }> {
  const { values } = await deps.metrics.indexBulkItems.get();
  const total = (name: string) => values.find((v) => v.metricName === name)?.value ?? 0;
  return { requests: total('index_bulk_items_count'), listings: total('index_bulk_items_sum') };
}

/** How many of `ids` a search finds (not a real-time get): what a caller of the search sees. */
async function searchableCount(ids: string[]): Promise<number> {
  const res = await deps.opensearch.search({
    index: names.listingsAlias('de'),
    body: { size: 0, track_total_hits: true, query: { terms: { id: ids.map((id) => `de:${id}`) } } },
  });
  return (res.body.hits.total as { value: number }).value;
}

t.test('200 listings created at once all become searchable, written in fewer _bulk requests than listings', async (t) => {
  // The worker is held while the writes commit, so that their jobs wait in the queue together, as
  // they do under a steady write load; it takes them up as many at a time as its concurrency.
  await worker.pause();
  const before = await bulkTotals();
  const responses = await Promise.all(
    Array.from({ length: 200 }, (_, i) =>
      app.inject({
        method: 'POST',
        url: '/de/listings',
        headers: owner.auth,
        payload: listingInput({ name: `Stapelbäckerei ${runId} ${i}` }),
      }),
    ),
  );
  t.same(
    responses.map((r) => r.statusCode),
    responses.map(() => 201),
    'every create answers 201',
  );
  const ids = responses.map((r) => String(r.json().id));
  t.equal(new Set(ids).size, 200, '200 distinct listings');
  worker.resume();

  await eventually(async () => ((await searchableCount(ids)) === 200 ? true : undefined), 30_000, 'all 200 listings to be searchable');
  const pending = await eventually(
    async () => {
      const [row] = await deps.database.db
        .select({ n: count() })
        .from(outbox)
        .where(and(inArray(outbox.listingId, ids.map(Number)), isNull(outbox.processedAt)));
      return row!.n === 0 ? row!.n : undefined;
    },
    10_000,
    'every outbox event of the 200 listings to be processed',
  );
  t.equal(pending, 0, 'no outbox event is left pending');

  const after = await bulkTotals();
  const requests = after.requests - before.requests;
  const listings = after.listings - before.listings;
  t.ok(listings >= 200, `the bulk requests carried every listing (${listings})`);
  t.ok(requests * 2 <= listings, `at least two listings per _bulk request on average (${requests} requests for ${listings} listings)`);
});

t.test('a batch holding two versions of one listing indexes its newest version once', async (t) => {
  const created = (await app.inject({ method: 'POST', url: '/de/listings', headers: owner.auth, payload: listingInput() })).json();
  await app.inject({ method: 'PUT', url: `/de/listings/${created.id}`, headers: owner.auth, payload: listingInput({ name: `Zweite Fassung ${runId}` }) });
  // Both jobs land in one batch: the listing is read once, at its current version 2.
  const outcomes = await Promise.all([1, 2].map((version) => sync({ listingId: Number(created.id), country: 'de', version })));
  t.ok(
    outcomes.every((o) => o === outcomes[0]),
    `both jobs share one outcome (${outcomes.join(', ')})`,
  );
  const res = await deps.opensearch.get({ index: names.listingsAlias('de'), id: `de:${created.id}` });
  t.equal(res.body._version, 2, 'the document holds version 2');
  t.equal((res.body._source as { name: string }).name, `Zweite Fassung ${runId}`);
});

t.test('a listing OpenSearch refuses fails only its own job: the rest of its batch is indexed, and its retry succeeds once it can be', async (t) => {
  const created = await Promise.all([0, 1].map(async () => (await app.inject({ method: 'POST', url: '/de/listings', headers: owner.auth, payload: listingInput() })).json()));
  const [good, bad] = created.map((c) => Number(c.id)) as [number, number];
  for (const id of [good, bad]) await eventually(() => indexedDocument(deps, 'de', id).then((d) => d ?? undefined), 5000, `listing ${id} indexed`);

  // Written straight to PostgreSQL, each as a new version: a latitude no geo_point accepts (the API
  // never lets one through) makes OpenSearch refuse that one item of the _bulk with a 400.
  const db = deps.database.db;
  const nextVersion = (id: number, values: Partial<typeof listings.$inferInsert>) =>
    db
      .update(listings)
      .set({ ...values, version: sql`${listings.version} + 1` })
      .where(eq(listings.id, id));
  await nextVersion(bad, { latitude: 1000 });
  await nextVersion(good, { name: `Gute Fassung ${runId}` });
  const [goodOutcome, badOutcome] = await Promise.allSettled([good, bad].map((listingId) => sync({ listingId, country: 'de', version: 2 })));
  t.same(goodOutcome, { status: 'fulfilled', value: 'indexed' }, 'the valid listing of the batch is indexed');
  t.equal(badOutcome!.status, 'rejected', "the refused listing's job fails, so that it is retried");
  t.equal((await indexedDocument(deps, 'de', good))?.version, 2);
  t.equal((await indexedDocument(deps, 'de', bad))?.version, 1, 'the refused listing keeps the version the index had');

  await nextVersion(bad, { latitude: 52.52 });
  t.equal(await sync({ listingId: bad, country: 'de', version: 3 }), 'indexed', 'the retry indexes it once it can be indexed');
  t.equal((await indexedDocument(deps, 'de', bad))?.version, 3);
});

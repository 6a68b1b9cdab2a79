// A reindex of at least 20 000 listings while searches run; none of them may fail or
// come back empty, and afterwards reconcile finds PostgreSQL and OpenSearch equal.
import { sql } from 'drizzle-orm';
import t from 'tap';
import { createListingSync } from '../../indexer/listing-sync.js';
import { reconcileCountry } from '../../indexer/reconcile.js';
import { reindexCountry } from '../../indexer/reindex.js';
import { indexLayout, publicUrls } from '../../src/platform/config.js';
import { build, config, eventually, listingInput, logger, names, runId, startIndexer } from '../helper.js';

const COUNT = 20_000;
const country = 'ch';
const { app, deps, partner } = await build(t);
const owner = await partner();
const { db } = deps.database;

// Bulk-load through the data layer (20 000 POSTs would test the API, not the reindex).
await db.execute(sql`
  insert into listings (country, name, address, zip, place, latitude, longitude, hours, created_by, claimed_by, version)
  select ${country}, 'Bulk Bäckerei ' || g, 'Bahnhofstrasse ' || g, lpad((g % 9000 + 1000)::text, 4, '0'), 'Zürich',
         47.37 + (g % 100) * 0.001, 8.54 + (g / 100 % 100) * 0.001, '{}'::jsonb, ${owner.id}, ${owner.id}, 1
  from generate_series(1, ${COUNT}) g`);
await db.execute(sql`
  insert into listing_categories (listing_id, position, country, category_id)
  select id, 0, ${country}, 'shop/bakery' from listings where country = ${country} and name like 'Bulk Bäckerei %'
  on conflict do nothing`);

await startIndexer(t, deps);
const sync = createListingSync({ db, opensearch: deps.opensearch, names, urls: publicUrls(config), logger });
const reindexDeps = { db, opensearch: deps.opensearch, names, layout: indexLayout(config), urls: publicUrls(config), sync, logger };

t.test('searches keep answering during a reindex of 20 000 listings; reconcile finds no difference', async (t) => {
  const first = await reindexCountry(reindexDeps, country);
  t.ok(first.documents >= COUNT, `${first.documents} listings indexed`);
  // The reindex builds the documents the indexer builds, the analyst fields included.
  const docValues = ['claimed', 'region', 'category_groups', 'image_count', 'tiles'];
  const found = await deps.opensearch.search({ index: names.listingsAlias(country), body: { size: 1, query: { term: { street: 'Bahnhofstrasse' } }, docvalue_fields: docValues } });
  const hit = found.body.hits.hits[0] as { _source?: Record<string, unknown>; fields?: Record<string, unknown[]> } | undefined;
  t.match(hit?._source, { status: 'active', has_offer: false }, 'a reindexed document has the analyst fields');
  t.match(hit?.fields, { claimed: [true], region: ['Zürich'], category_groups: ['shop'], image_count: [0] }, 'those kept out of _source in doc values');
  t.equal(hit?.fields?.tiles?.length, 6, 'and its map tiles');

  let stop = false;
  const failures: string[] = [];
  let searches = 0;
  const queries = [
    '/ch/listings?solr=true&what=Backerei&where=Zurich&limit=5',
    '/ch/listings?street=Bahnhofstrasse*&place=zurich&postCode=1*&limit=5',
    '/ch/listings?solr=true&lat=47.37&lon=8.54&limit=5',
  ];
  const searching = (async () => {
    while (!stop) {
      for (const url of queries) {
        const res = await app.inject({ url, headers: owner.auth });
        searches++;
        if (res.statusCode !== 200 || res.json().numReturned === 0) failures.push(`${url}: ${res.statusCode} ${res.body.slice(0, 200)}`);
      }
    }
  })();
  // A write during the reindex must be caught up into the new index.
  const during = (async () => {
    await new Promise((r) => setTimeout(r, 300));
    return (await app.inject({ method: 'POST', url: '/ch/listings', headers: owner.auth, payload: listingInput({ name: `Während ${runId}`, place: 'Zürich', zip: '8001' }) })).json().id as string;
  })();
  const second = await reindexCountry(reindexDeps, country);
  const duringId = await during;
  await new Promise((r) => setTimeout(r, 300));
  stop = true;
  await searching;

  t.ok(searches > 10, `${searches} searches ran during the reindex`);
  t.same(failures, [], 'no failed or empty search');
  t.ok(second.documents >= COUNT);
  t.same(second.droppedIndices, [first.index], 'the previous index is dropped');
  const aliased = Object.keys((await deps.opensearch.indices.getAlias({ name: names.listingsAlias(country) })).body as object);
  t.same(aliased, [second.index], 'the alias points at the new index');

  // The write made during the reindex reaches the new index (caught up, or indexed there directly).
  const { checked, differences } = await eventually(
    async () => {
      const result = await reconcileCountry({ db, opensearch: deps.opensearch, names }, country);
      return result.differences.length === 0 ? result : undefined;
    },
    5000,
    'reconcile to find no difference',
  );
  t.ok(checked >= COUNT + 1);
  t.same(differences, [], 'PostgreSQL and OpenSearch agree on ids and versions');
  t.ok((await app.inject({ url: `/ch/listings?ids=${duringId}`, headers: owner.auth })).json().numFound === 1, 'the write made during the reindex is searchable');
});

t.test('reconcile reports missing, extra and stale documents', async (t) => {
  const [row] = (await db.execute<{ id: number }>(sql`select id from listings where country = ${country} and deleted_at is null order by id limit 1`)).rows;
  const id = Number(row!.id);
  await deps.opensearch.delete({ index: names.listingsAlias(country), id: `${country}:${id}`, refresh: true });
  await db.execute(sql`update listings set version = version + 1 where id = ${id + 1}`);
  await deps.opensearch.index({ index: names.listingsAlias(country), id: `${country}:999999999`, body: { lid: 999999999, version: 1 }, refresh: true });
  const { differences } = await reconcileCountry({ db, opensearch: deps.opensearch, names }, country);
  t.same(
    differences.map((d) => [d.kind, d.listingId]),
    [
      ['missing', id],
      ['version', id + 1],
      ['extra', 999999999],
    ],
  );
});

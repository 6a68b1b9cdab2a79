// The search route sends its documents without the serializer (routes/search.ts), so nothing at
// run time holds them to the response schema the OpenAPI document publishes. This test does: real
// responses of every search mode, with the optional fields present and absent, against the schema.
import t, { type Test } from 'tap';
import { readFileSync } from 'node:fs';
import { Type, type TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { ImageSchema, ListingSummarySchema } from '../../src/schemas/listing.js';
import { ListingSearchResponseSchema, SolrResultSchema } from '../../src/schemas/search.js';
import { build, eventually, listingInput, refreshEveryCopy, runId, startIndexer } from '../helper.js';

const { app, deps, partner } = await build(t);
await startIndexer(t, deps);
const owner = await partner();
const admin = await partner('admin'); // only website reviews make the public rating

const references = [ImageSchema, ListingSummarySchema, SolrResultSchema];
/** The published schema with one kind of listing, so that a failure names the field, not just "the union". */
const pageOf = (item: TSchema) => Type.Object({ ...ListingSearchResponseSchema.properties, listings: Type.Array(item) });
const FilteredPage = pageOf(Type.Ref(ListingSummarySchema));
const SolrPage = pageOf(Type.Ref(SolrResultSchema));

const word = `schema${runId.replace(/\d/g, (d) => 'qwrtzpsdfg'[Number(d)]!)}`;
const town = `Prüfdorf ${word}`;
const zip = String(10000 + Math.floor(Math.random() * 80000));
const phone = `+4930${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
const centre = { lat: 48 + Math.random(), lon: 11 + Math.random() };

async function create(payload: ReturnType<typeof listingInput>): Promise<string> {
  const res = await app.inject({ method: 'POST', url: '/de/listings', headers: owner.auth, payload });
  if (res.statusCode !== 201) throw new Error(`create failed: ${res.statusCode} ${res.body}`);
  return res.json().id;
}

// One listing with everything a result can carry (coordinates, an image, a rating) and one with
// nothing optional (no coordinates, description or contact; no images, no reviews).
const full = await create(
  listingInput({
    name: `Café ${word}`,
    place: town,
    zip,
    address: 'Prüfweg 7',
    phones: [{ type: 'landline', number: phone }],
    latitude: centre.lat,
    longitude: centre.lon,
  }),
);
const bare = await create(
  listingInput({
    name: `Imbiss ${word}`,
    place: town,
    zip,
    address: 'Prüfweg 9',
    phones: [{ type: 'mobile', number: phone }],
    latitude: null,
    longitude: null,
    description: null,
    contact: null,
    keywords: [],
    emails: [],
    links: [],
    hours: {},
  }),
);

const png = readFileSync(new URL('../fixtures/images/tiny.png', import.meta.url)).toString('base64');
const image = await app.inject({ method: 'POST', url: `/de/listings/${full}/images`, headers: owner.auth, payload: { type: 'logo', caption: 'Logo', base64: png } });
if (image.statusCode !== 201) throw new Error(`image upload failed: ${image.statusCode} ${image.body}`);
for (const [n, rating] of [
  [1, 5],
  [2, 4],
] as const) {
  const review = await app.inject({
    method: 'POST',
    url: `/de/listings/${full}/reviews`,
    headers: admin.auth,
    payload: { source_id: `${word}-${n}`, reviewer: 'R', reviewed: '', title: '', text: 'ok', rating, date_time: '2026-05-01T12:00:00+02:00' },
  });
  if (review.statusCode !== 201) throw new Error(`review failed: ${review.statusCode} ${review.body}`);
}

const search = async (query: string) => {
  const res = await app.inject({ url: `/de/listings?${query}`, headers: owner.auth });
  const body = res.json() as Record<string, unknown> & { listings?: Record<string, unknown>[] };
  return { status: res.statusCode, body, listings: body.listings ?? [] };
};

// Both listings indexed with the image and the rating before any response is checked.
await eventually(
  async () => {
    const filtered = (await search(`ids=${full},${bare}`)).listings;
    const solr = (await search(`solr=true&what=${word}`)).listings;
    const images = filtered.find((l) => l.id === full)?.images as unknown[] | undefined;
    const rated = solr.find((l) => String(l.lid) === full)?.rating;
    return filtered.length === 2 && images?.length === 1 && solr.length === 2 && rated === 4.5 ? true : undefined;
  },
  10_000,
  'both listings in the index with the image and the rating',
);
await refreshEveryCopy(deps, 'de');

/** Every failed check of the response against `page`, one line each, empty when it conforms. */
function schemaErrors(page: TSchema, body: unknown): string[] {
  return [...Value.Errors(page, references, body)].map((e) => `${e.path || '/'}: ${e.message} (got ${JSON.stringify(e.value)})`);
}

/**
 * The response holds to the published schema: every field the schema names has its type, and no
 * field the schema leaves out is sent (the serializer would have dropped it).
 */
function assertConforms(t: Test, page: TSchema, body: unknown) {
  const errors = schemaErrors(page, body);
  t.strictSame(errors, [], 'the response matches its listing schema');
  t.ok(Value.Check(ListingSearchResponseSchema, references, body), 'the response matches the published response schema');
  t.strictSame(Value.Clean(page, references, structuredClone(body)), body, 'no field outside the schema');
}

t.test('filtered search responses (ids, phone, address) match the response schema, with and without images and coordinates', async (t) => {
  for (const query of [`ids=${full},${bare}`, `phone=${encodeURIComponent(phone)}`, `street=*&place=${encodeURIComponent(town)}&postCode=${zip}`]) {
    await t.test(query, async (t) => {
      const { status, body, listings } = await search(query);
      t.equal(status, 200);
      const ours = listings.filter((l) => l.id === full || l.id === bare);
      t.equal(ours.length, 2, 'both listings found');
      t.equal((ours.find((l) => l.id === full)!.images as unknown[]).length, 1, 'one listing has an image');
      t.equal(ours.find((l) => l.id === bare)!.latitude, null, 'one listing has no coordinates');
      assertConforms(t, FilteredPage, body);
    });
  }
});

t.test('Solr-mode responses match the response schema, with rating and location present and absent, with and without lat/lon', async (t) => {
  await t.test('without lat/lon', async (t) => {
    const { status, body, listings } = await search(`solr=true&what=${word}`);
    t.equal(status, 200);
    const rated = listings.find((l) => String(l.lid) === full)!;
    const unrated = listings.find((l) => String(l.lid) === bare)!;
    t.equal(rated.rating, 4.5, 'rating present');
    t.ok('loc' in rated, 'location present');
    t.notOk('rating' in unrated, 'no rating without website reviews');
    t.notOk('loc' in unrated, 'no location without coordinates');
    t.notOk('_dist_' in rated, 'no distance without a centre');
    assertConforms(t, SolrPage, body);
  });

  await t.test('with lat/lon', async (t) => {
    const { status, body, listings } = await search(`solr=true&what=${word}&lat=${centre.lat}&lon=${centre.lon}`);
    t.equal(status, 200);
    const near = listings.find((l) => String(l.lid) === full)!;
    t.type(near._dist_, 'number', 'distance present');
    t.type(near._distboost_, 'number', 'distance factor present');
    t.equal(near.rating, 4.5, 'rating present');
    assertConforms(t, SolrPage, body);
  });
});

// The analyst fields of the index document (docs/contract.md §22, docs/analytics.md) follow the
// listing's writes through the indexer: claims, offers, images, website reviews, closures.
import { readFileSync } from 'node:fs';
import t from 'tap';
import { build, eventually, indexedDocValues, indexedDocument, indexedTiles, INDEXED_WITHIN_MS, listingInput, runId, startIndexer } from '../helper.js';

const { app, deps, partner } = await build(t);
await startIndexer(t, deps);
const creator = await partner();
const claimant = await partner('admin');
const names = await deps.partners.list();
const nameOf = (id: number) => names.find((p) => p.id === id)!.name;

const call = (method: string, url: string, auth: { authorization: string }, payload?: unknown) =>
  app.inject({ method: method as 'GET', url, headers: auth, ...(payload === undefined ? {} : { payload: payload as object }) });

/** The analyst fields that are kept in doc values only, not in `_source` (mappings/listings.json). */
const SINGLE_VALUED = ['claimed', 'zip', 'street', 'region', 'image_count', 'has_hours', 'has_website', 'has_phone', 'has_email', 'completeness'];

/**
 * The document once its version is at least `version`: its `_source` with the fields kept out of
 * it read from doc values, one value each (null for none), `category_groups` as its list.
 */
const documentAt = async (id: string, version: number): Promise<Record<string, unknown> & { in_source: string[] }> => {
  const source: Record<string, unknown> = await eventually(
    async () => {
      const doc = await indexedDocument(deps, 'de', id);
      return doc && doc.version >= version ? doc.source : undefined;
    },
    INDEXED_WITHIN_MS,
    `the document at version ${version}`,
  );
  const values = (await indexedDocValues(deps, 'de', id, [...SINGLE_VALUED, 'category_groups']))!;
  const single = Object.fromEntries(SINGLE_VALUED.map((field) => [field, values[field]![0] ?? null]));
  return { ...source, ...single, category_groups: values.category_groups, in_source: Object.keys(source) };
};

t.test('a new listing is indexed with its analyst fields', async (t) => {
  const res = await call('POST', '/de/listings', creator.auth, listingInput({ name: `Analyse ${runId}` }));
  t.equal(res.statusCode, 201);
  const { id } = res.json();
  const doc = await documentAt(id, 1);
  t.match(doc, {
    status: 'active',
    claimed: true,
    claimed_by: nameOf(creator.id),
    created_by: nameOf(creator.id),
    zip: '10115',
    street: 'Hauptstraße',
    place: 'Berlin',
    region: 'Berlin',
    category_ids: ['shop/bakery'],
    category_groups: ['shop'],
    image_count: 0,
    review_count: 0,
    rating: null,
    has_offer: false,
    has_hours: true,
    has_website: true,
    has_phone: true,
    has_email: true,
    // coordinates, phone, email, website, hours, description and keywords: all but an image
    completeness: 7 / 8,
  });
  t.same(await indexedTiles(deps, 'de', id), ['10/550/335', '12/2200/1343', '14/8802/5373', '4/8/5', '6/34/20', '8/137/83'], 'its map tiles, in doc values');
  t.same(
    [...SINGLE_VALUED, 'category_groups', 'tiles'].filter((field) => doc.in_source.includes(field)),
    [],
    'the fields computed from the listing are left out of _source',
  );
  t.ok(Math.abs(Date.parse(doc.created_at as string) - Date.now()) < 60_000, 'created_at is when it was created');
  t.equal(doc.created_at, doc.updated_at, 'a new listing was updated when it was created');
});

t.test('claims, offers, images, website reviews and closures reach the analyst fields; partner reviews do not', async (t) => {
  const { id } = (await call('POST', '/de/listings', creator.auth, listingInput({ name: `Analyse Wege ${runId}` }))).json();
  t.equal((await call('PUT', `/de/listings/${id}/claim`, claimant.auth)).statusCode, 204, 'an admin takes the claim over');
  t.match(await documentAt(id, 2), { claimed: true, claimed_by: nameOf(claimant.id), created_by: nameOf(creator.id) });

  t.equal((await call('PUT', `/de/listings/${id}/offer`, claimant.auth, { message: 'Zwei für eins', url: 'https://example.com/o' })).statusCode, 204);
  t.match(await documentAt(id, 3), { has_offer: true }, 'an offer moves the version and reaches the index');
  t.equal((await call('DELETE', `/de/listings/${id}/offer`, claimant.auth)).statusCode, 204);
  t.match(await documentAt(id, 4), { has_offer: false });

  const png = readFileSync(new URL('../fixtures/images/tiny.png', import.meta.url)).toString('base64');
  t.equal((await call('POST', `/de/listings/${id}/images`, claimant.auth, { type: 'logo', caption: '', base64: png })).statusCode, 201);
  t.match(await documentAt(id, 5), { image_count: 1, completeness: 1 });

  const review = (n: number, rating: number) => ({ source_id: `a${runId}-${n}`, reviewer: 'R', reviewed: '', title: '', text: 'gut', rating, date_time: '2026-05-01T12:00:00+02:00' });
  t.equal((await call('POST', `/de/listings/${id}/reviews`, creator.auth, review(1, 1))).statusCode, 201, "the creator's own review: private");
  t.equal((await call('POST', `/de/listings/${id}/reviews`, claimant.auth, review(2, 4))).statusCode, 201, 'a website review');
  t.match(await documentAt(id, 6), { review_count: 1, rating: 4 }, 'only the website review counts');

  t.equal((await call('DELETE', `/de/listings/${id}/claim`, claimant.auth)).statusCode, 204);
  t.match(await documentAt(id, 7), { claimed: false, claimed_by: null });

  const closed = listingInput({ name: `Analyse Wege ${runId}`, temporarily_closed: { until: null } });
  t.equal((await call('PUT', `/de/listings/${id}`, creator.auth, closed)).statusCode, 200);
  t.match(await documentAt(id, 8), { status: 'temporarily_closed' });
  t.equal((await call('PUT', `/de/listings/${id}/suppress`, claimant.auth)).statusCode, 204);
  t.match(await documentAt(id, 9), { status: 'suppressed' });
});

t.test('a listing without coordinates has its region from its place, and no tiles', async (t) => {
  const { id } = (await call('POST', '/de/listings', creator.auth, listingInput({ name: `Analyse Ort ${runId}`, latitude: null, longitude: null, place: 'München', zip: '80331' }))).json();
  t.match(await documentAt(id, 1), { region: 'Bayern', loc: null });
  t.same(await indexedTiles(deps, 'de', id), []);
});

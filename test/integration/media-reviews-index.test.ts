import t from 'tap';
import { readFileSync } from 'node:fs';
import { build, eventually, INDEXED_WITHIN_MS, listingInput, runId, startIndexer } from '../helper.js';

const { app, deps, partner } = await build(t);
await startIndexer(t, deps);
const { auth } = await partner();
const admin = await partner('admin'); // only website reviews make the public rating (docs/contract.md §5)
const word = `rate${runId.replace(/\d/g, 'y')}`;
const { id } = (await app.inject({ method: 'POST', url: '/de/listings', headers: auth, payload: listingInput({ name: `${word} Imbiss` }) })).json();
const solrHit = async () => (await app.inject({ url: `/de/listings?solr=true&what=${word}`, headers: auth })).json().listings[0];

t.test('rating appears in Solr results only once the listing has website reviews, soon after a new one', async (t) => {
  const before = await eventually(solrHit, INDEXED_WITHIN_MS, 'the listing in Solr mode');
  t.notOk('rating' in before, 'no rating without reviews');
  const review = (rating: number, n: number) => ({ source_id: `${word}-${n}`, reviewer: 'R', reviewed: '', title: '', text: 'ok', rating, date_time: '2026-05-01T12:00:00+02:00' });
  await app.inject({ method: 'POST', url: `/de/listings/${id}/reviews`, headers: admin.auth, payload: review(5, 1) });
  await app.inject({ method: 'POST', url: `/de/listings/${id}/reviews`, headers: admin.auth, payload: review(4, 2) });
  await app.inject({ method: 'POST', url: `/de/listings/${id}/reviews`, headers: admin.auth, payload: review(4, 3) });
  const rated = await eventually(
    async () => {
      const hit = await solrHit();
      return hit?.rating === 4.3 ? hit : undefined;
    },
    INDEXED_WITHIN_MS,
    'rating 4.3 (mean of 5, 4, 4 to one decimal)',
  );
  t.equal(rated._version_, 4, 'created at version 1, each website review a new version');
});

t.test('images reach the filtered search results through the index', async (t) => {
  const png = readFileSync(new URL('../fixtures/images/tiny.png', import.meta.url)).toString('base64');
  const image = (await app.inject({ method: 'POST', url: `/de/listings/${id}/images`, headers: auth, payload: { type: 'logo', caption: 'Logo', base64: png } })).json();
  const listing = await eventually(
    async () => {
      const found = (await app.inject({ url: `/de/listings?ids=${id}`, headers: auth })).json().listings[0];
      return found?.images.length === 1 ? found : undefined;
    },
    INDEXED_WITHIN_MS,
    'the image in search results',
  );
  t.same(listing.images, [image]);
});

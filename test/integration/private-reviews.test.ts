// Partner reviews are private to their author (docs/contract.md §5 and §9): no public figure may
// move with them, and no partner may pile up reviews on a listing.
import t from 'tap';
import { build, eventually, INDEXED_WITHIN_MS, indexedDocument, listingInput, runId, startIndexer } from '../helper.js';

const { app, deps, partner } = await build(t);
await startIndexer(t, deps);
const alice = await partner();
const bob = await partner();
const admin = await partner('admin');

let n = 0;
const review = (rating: number, overrides: Record<string, unknown> = {}) => ({
  source_id: `priv-${runId}-${++n}`,
  reviewer: 'R',
  reviewed: '',
  title: '',
  text: 'ok',
  rating,
  date_time: '2026-05-01T12:00:00+02:00',
  ...overrides,
});
const postReview = (target: typeof app, id: string, auth: Record<string, string>, body: object) => target.inject({ method: 'POST', url: `/de/listings/${id}/reviews`, headers: auth, payload: body });
const storedVersion = async (id: string) => Number((await deps.database.pool.query('select version from listings where id = $1', [id])).rows[0].version);

t.test('a partner review moves neither rating, review_count nor version in the listing, its document or Solr results; a website review does', async (t) => {
  const word = `priv${runId.replace(/\d/g, 'q')}`;
  const { id } = (await app.inject({ method: 'POST', url: '/de/listings', headers: alice.auth, payload: listingInput({ name: `${word} Kiosk` }) })).json();
  const solrHit = async () => (await app.inject({ url: `/de/listings?solr=true&what=${word}`, headers: bob.auth })).json().listings[0];
  // Waits until the index holds what PostgreSQL holds now, so nothing written before is still on its way.
  const indexedNow = async () => {
    const version = await storedVersion(id);
    return eventually(
      async () => {
        const doc = await indexedDocument(deps, 'de', id);
        return doc && doc.version >= version ? doc : undefined;
      },
      5000,
      `version ${version} of listing ${id} in the index`,
    );
  };

  t.equal((await postReview(app, id, admin.auth, review(2))).statusCode, 201);
  const rated = await indexedNow();
  t.equal(rated.source.rating, 2);
  t.equal(rated.source.review_count, 1);
  const listingBefore = (await app.inject({ url: `/de/listings/${id}`, headers: bob.auth })).json();
  const hitBefore = await eventually(
    async () => {
      const hit = await solrHit();
      return hit?.rating === 2 ? hit : undefined;
    },
    INDEXED_WITHIN_MS,
    'rating 2 in Solr results',
  );

  for (const [who, rating] of [
    [alice, 5],
    [bob, 5],
    [alice, 1],
  ] as const) {
    t.equal((await postReview(app, id, who.auth, review(rating))).statusCode, 201);
  }
  t.equal(await storedVersion(id), hitBefore._version_, 'partner reviews leave the version alone');
  t.same((await app.inject({ url: `/de/listings/${id}`, headers: bob.auth })).json(), listingBefore, 'GET listing unchanged');

  // A website review is the barrier: once it is indexed, any change the partner reviews made is too.
  t.equal((await postReview(app, id, admin.auth, review(4))).statusCode, 201);
  const after = await indexedNow();
  t.equal(after.source.rating, 3, 'mean of the two website reviews (2 and 4), not of all five');
  t.equal(after.source.review_count, 2);
  const hitAfter = await eventually(
    async () => {
      const hit = await solrHit();
      return hit?._version_ === hitBefore._version_ + 1 ? hit : undefined;
    },
    INDEXED_WITHIN_MS,
    'the website review in Solr results',
  );
  t.equal(hitAfter.rating, 3);

  const own = (await app.inject({ url: `/de/listings/${id}/reviews`, headers: bob.auth })).json();
  t.equal(own.numFound, 3, 'bob still sees his review and the two website reviews');
  const bobs = own.reviews.find((r: { rating: number; reviewer: string }) => r.rating === 5);
  t.equal((await app.inject({ method: 'DELETE', url: `/de/listings/${id}/reviews/${bobs.id}`, headers: bob.auth })).statusCode, 204);
  t.equal(await storedVersion(id), hitAfter._version_, 'deleting a partner review leaves the version alone too');
});

t.test('a partner holds at most REVIEWS_PER_PARTNER_PER_LISTING reviews on a listing, also when posting concurrently', async (t) => {
  const bound = 5;
  const limited = await build(t, { config: { REVIEWS_PER_PARTNER_PER_LISTING: bound } });
  const carol = await limited.partner();
  const dave = await limited.partner();
  const root = await limited.partner('admin');
  const { id } = (await limited.app.inject({ method: 'POST', url: '/de/listings', headers: carol.auth, payload: listingInput() })).json();

  const answers = await Promise.all(Array.from({ length: 4 * bound }, () => postReview(limited.app, id, carol.auth, review(3))));
  const statuses = answers.map((a) => a.statusCode).sort();
  t.same(statuses, [...Array(bound).fill(201), ...Array(3 * bound).fill(409)], 'exactly the bound succeeds');
  const refused = answers.find((a) => a.statusCode === 409)!.json();
  t.equal(refused.type, 'conflict');
  t.same(refused.details, [`reviews: at most ${bound} per partner and listing`]);
  const held = await deps.database.pool.query('select count(*)::int as n from reviews where listing_id = $1 and partner_id = $2', [id, carol.id]);
  t.equal(held.rows[0].n, bound, 'nothing stored beyond the bound');

  t.equal((await postReview(limited.app, id, dave.auth, review(3))).statusCode, 201, 'the bound is per partner');
  for (let i = 0; i <= bound; i++) t.equal((await postReview(limited.app, id, root.auth, review(3))).statusCode, 201, 'website reviews are not bounded');

  const first = answers.find((a) => a.statusCode === 201)!.json();
  t.equal((await limited.app.inject({ method: 'DELETE', url: `/de/listings/${id}/reviews/${first.id}`, headers: carol.auth })).statusCode, 204);
  t.equal((await postReview(limited.app, id, carol.auth, review(3))).statusCode, 201, 'a freed place can be used again');
});

t.test('the same source_id posted twice at once: one 201, one 409 naming the review', async (t) => {
  const { id } = (await app.inject({ method: 'POST', url: '/de/listings', headers: alice.auth, payload: listingInput() })).json();
  const body = review(4);
  const answers = await Promise.all([postReview(app, id, bob.auth, body), postReview(app, id, bob.auth, body)]);
  t.same(answers.map((a) => a.statusCode).sort(), [201, 409]);
  const created = answers.find((a) => a.statusCode === 201)!.json();
  const refused = answers.find((a) => a.statusCode === 409)!.json();
  t.equal(refused.type, 'conflict');
  t.match(refused.message, new RegExp(`review ${created.id} `));
});

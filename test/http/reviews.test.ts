import t from 'tap';
import { build, listingInput, runId } from '../helper.js';

const { app, partner } = await build(t);
const alice = await partner();
const bob = await partner();
const admin = await partner('admin');
const { id } = (await app.inject({ method: 'POST', url: '/de/listings', headers: alice.auth, payload: listingInput() })).json();

const review = (overrides: Record<string, unknown> = {}) => ({
  source_id: `r-${runId}-${Math.random().toString(36).slice(2, 8)}`,
  reviewer: 'Max M.',
  reviewed: '',
  title: 'Gut',
  text: 'Sehr gutes Brot.',
  rating: 4,
  date_time: '2026-01-15T10:30:00+01:00',
  ...overrides,
});
const post = (auth: Record<string, string>, body: object) => app.inject({ method: 'POST', url: `/de/listings/${id}/reviews`, headers: auth, payload: body });
const list = async (auth: Record<string, string>) => (await app.inject({ url: `/de/listings/${id}/reviews`, headers: auth })).json();

const website = (await post(admin.auth, review({ date_time: '2026-03-01T09:00:00Z', reviewer: 'Website' }))).json();
const fromAlice = (await post(alice.auth, review({ date_time: '2026-02-01T09:00:00+02:00', reviewer: 'Alice' }))).json();
const fromBob = (await post(bob.auth, review({ date_time: '2026-04-01T09:00:00-05:00', reviewer: 'Bob' }))).json();

t.test('POST answers 201 with the review and its id; date_time keeps its offset', async (t) => {
  const body = review();
  const res = await post(alice.auth, body);
  t.equal(res.statusCode, 201, res.body);
  t.same(res.json(), { id: res.json().id, ...body });
  t.match(res.json().id, /^\d+$/);
});

t.test('a partner sees website reviews and its own, newest first; an admin sees all', async (t) => {
  const names = (body: { reviews: { reviewer: string }[] }) => body.reviews.map((r) => r.reviewer).filter((n) => ['Website', 'Alice', 'Bob'].includes(n));
  t.same(names(await list(alice.auth)), ['Website', 'Alice']);
  t.same(names(await list(bob.auth)), ['Bob', 'Website']);
  t.same(names(await list(admin.auth)), ['Bob', 'Website', 'Alice']);
  const aliceList = await list(alice.auth);
  t.equal(aliceList.numFound, aliceList.reviews.length);
});

t.test('direct reads follow the same visibility', async (t) => {
  t.equal((await app.inject({ url: `/de/listings/${id}/reviews/${fromBob.id}`, headers: bob.auth })).statusCode, 200);
  t.equal((await app.inject({ url: `/de/listings/${id}/reviews/${fromBob.id}`, headers: alice.auth })).statusCode, 404, 'invisible is not found');
  t.equal((await app.inject({ url: `/de/listings/${id}/reviews/${website.id}`, headers: alice.auth })).statusCode, 200);
  t.equal((await app.inject({ url: `/de/listings/${id}/reviews/${fromAlice.id}`, headers: admin.auth })).statusCode, 200);
});

t.test('the same source_id twice from one partner on one listing is a conflict', async (t) => {
  const body = review();
  t.equal((await post(alice.auth, body)).statusCode, 201);
  const dup = await post(alice.auth, body);
  t.equal(dup.statusCode, 409);
  t.equal(dup.json().type, 'conflict');
  t.equal((await post(bob.auth, body)).statusCode, 201, 'another partner may use it');
});

t.test('validation: rating bounds, future dates, offsets, lengths', async (t) => {
  const future = new Date(Date.now() + 3600_000).toISOString();
  const cases: [Record<string, unknown>, RegExp][] = [
    [{ rating: 0 }, /^rating: must be an integer from 1 to 5$/],
    [{ rating: 6 }, /^rating: must be an integer from 1 to 5$/],
    [{ rating: 3.5 }, /^rating: /],
    [{ date_time: future }, /^date_time: must not be in the future$/],
    [{ date_time: '2026-01-15T10:30:00' }, /^date_time: must be an ISO 8601 date-time with a UTC offset/],
    [{ date_time: '2026-13-45T10:30:00Z' }, /^date_time: is not a valid date-time$/],
    [{ text: '' }, /^text: must be 1–10000 characters$/],
    [{ reviewer: '' }, /^reviewer: must be 1–200 characters$/],
    [{ source_id: 'a b' }, /^source_id: /],
  ];
  for (const [overrides, detail] of cases) {
    const res = await post(alice.auth, review(overrides));
    t.equal(res.statusCode, 400, JSON.stringify(overrides));
    t.ok(
      res.json().details.some((d: string) => detail.test(d)),
      `${JSON.stringify(overrides)}: ${JSON.stringify(res.json().details)}`,
    );
  }
});

t.test('DELETE: own review 204, a website review 403 for a partner, an invisible one 404', async (t) => {
  const mine = (await post(bob.auth, review())).json();
  t.equal((await app.inject({ method: 'DELETE', url: `/de/listings/${id}/reviews/${website.id}`, headers: bob.auth })).statusCode, 403);
  t.equal((await app.inject({ method: 'DELETE', url: `/de/listings/${id}/reviews/${mine.id}`, headers: alice.auth })).statusCode, 404);
  t.equal((await app.inject({ method: 'DELETE', url: `/de/listings/${id}/reviews/${mine.id}`, headers: bob.auth })).statusCode, 204);
  t.equal((await app.inject({ url: `/de/listings/${id}/reviews/${mine.id}`, headers: bob.auth })).statusCode, 404);
  t.equal((await app.inject({ method: 'DELETE', url: `/de/listings/${id}/reviews/${fromAlice.id}`, headers: admin.auth })).statusCode, 204, 'an admin may delete any review');
});

t.test('reviews of an unknown listing answer 404', async (t) => {
  t.equal((await app.inject({ url: '/de/listings/999999999/reviews', headers: alice.auth })).statusCode, 404);
  t.equal((await app.inject({ method: 'POST', url: '/de/listings/999999999/reviews', headers: alice.auth, payload: review() })).statusCode, 404);
});

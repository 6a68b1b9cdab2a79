// OpenSearch's own errors never pass through: a missing index answers 503 `unavailable` with
// Retry-After and a message that names nothing inside (no index, no alias, no prefix).
import t from 'tap';
import { build, listingInput, runId } from '../helper.js';

// An index prefix nothing was ever created under: every alias the app asks for is missing.
const prefix = `missing-${runId}-`;
const { app, partner } = await build(t, { config: { INDEX_PREFIX: prefix } });
const owner = await partner();

for (const url of ['/de/listings?solr=true&what=B%C3%A4ckerei', '/de/listings?phone=%2B493012345678', '/de/categories?name=B*']) {
  t.test(`GET ${url} on a missing index answers 503 without internals`, async (t) => {
    const res = await app.inject({ url, headers: owner.auth });
    t.equal(res.statusCode, 503);
    t.same(res.json(), { type: 'unavailable', message: 'a backing service is unavailable; retry later', details: [] });
    t.equal(res.headers['retry-after'], '5');
    t.notMatch(res.body, /index|alias|missing-/i);
  });
}

t.test('writes still answer: PostgreSQL is the source of truth', async (t) => {
  const res = await app.inject({ method: 'POST', url: '/de/listings', headers: owner.auth, payload: listingInput() });
  t.equal(res.statusCode, 201);
});

// Every route with an id in its path reads it through the one parser of src/http/ids.ts: an id of
// the right shape that is too large to exist answers 404 like any other id that names nothing,
// never a 500 from PostgreSQL's bigint range. The routes are walked from the OpenAPI document
// (test/http/operations.test.ts checks that it lists every route the app serves).
import t from 'tap';
import { readFileSync } from 'node:fs';
import { build, listingInput, runId } from '../helper.js';

const { app, partner } = await build(t);
const admin = await partner('admin');

const created = async (method: 'POST', url: string, payload: object) => {
  const res = await app.inject({ method, url, headers: admin.auth, payload });
  if (res.statusCode !== 201) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
  return (res.json() as { id: string }).id;
};
const tinyPng = readFileSync(new URL('../fixtures/images/tiny.png', import.meta.url)).toString('base64');
const review = { source_id: `ids-${runId}`, reviewer: 'Max', reviewed: '', title: '', text: 'Gut.', rating: 4, date_time: '2026-01-15T10:30:00+01:00' };
const webhook = { url: 'https://93.184.216.34/hook', events: ['*'] };

/** Ids that exist, so that each request fails on the one id it makes too large, not on another. */
const listingId = await created('POST', '/de/listings', listingInput());
const existing: Record<string, string> = {
  country: 'de',
  id: listingId,
  imageId: await created('POST', `/de/listings/${listingId}/images`, { type: 'photo', caption: '', base64: tinyPng }),
  reviewId: await created('POST', `/de/listings/${listingId}/reviews`, review),
};
const webhookId = await created('POST', '/webhooks', webhook);

/** A valid body for each operation that needs one: the request must reach its handler. */
const BODIES: Record<string, object> = {
  'PUT /{country}/listings/{id}': listingInput(),
  'PATCH /{country}/listings/{id}': { name: 'Neu' },
  'POST /{country}/listings/{id}/restore': { version: 1 },
  'PUT /{country}/listings/{id}/offer': { message: 'Zwei für eins', url: 'https://example.com/offer' },
  'POST /{country}/listings/{id}/images': { type: 'photo', caption: '', base64: tinyPng },
  'POST /{country}/listings/{id}/image': { type: 'photo', caption: '', base64: tinyPng },
  'PUT /{country}/listings/{id}/images/{imageId}': { caption: 'neu' },
  'PUT /{country}/listings/{id}/image/{imageId}': { caption: 'neu' },
  'POST /{country}/listings/{id}/reviews': { ...review, source_id: `ids-${runId}-2` },
  'PUT /webhooks/{id}': webhook,
};

/** In PostgreSQL's bigint range but not a safe JavaScript integer; the bigint maximum; beyond it. */
const TOO_LARGE = ['9007199254740993', '9223372036854775807', '9999999999999999999'];
const ID_PARAMS = new Set(['id', 'imageId', 'reviewId']);

const doc = (await app.inject({ url: '/openapi.json' })).json() as { paths: Record<string, Record<string, unknown>> };
const operations = Object.entries(doc.paths).flatMap(([path, ops]) =>
  Object.keys(ops)
    .filter((method) => method !== 'parameters')
    .map((method) => ({ method: method.toUpperCase(), path })),
);
const withIds = operations.filter(({ path }) => [...path.matchAll(/\{(\w+)\}/g)].some(([, name]) => ID_PARAMS.has(name!)));

t.test('the walk covers the routes of listings, claims, suppression, offers, images, reviews and webhooks', async (t) => {
  const walked = withIds.map(({ method, path }) => `${method} ${path}`);
  t.ok(walked.length >= 25, `${walked.length} operations with an id`);
  for (const expected of [
    'PUT /{country}/listings/{id}/claim',
    'DELETE /{country}/listings/{id}/suppress',
    'PUT /{country}/listings/{id}/offer',
    'GET /{country}/listings/{id}/offer',
    'POST /webhooks/{id}/test',
  ]) {
    t.ok(walked.includes(expected), expected);
  }
});

t.test('every route with an id answers 404 not_found for an id too large to exist', async (t) => {
  for (const { method, path } of withIds) {
    const params = [...path.matchAll(/\{(\w+)\}/g)].map(([, name]) => name!).filter((name) => ID_PARAMS.has(name));
    for (const param of params) {
      for (const huge of TOO_LARGE) {
        const values: Record<string, string> = { ...existing, ...(path.startsWith('/webhooks') ? { id: webhookId } : {}), [param]: huge };
        const url = path.replace(/\{(\w+)\}/g, (_, name: string) => values[name]!);
        const body = BODIES[`${method} ${path}`];
        const res = await app.inject({ method: method as 'GET', url, headers: admin.auth, ...(body ? { payload: body } : {}) });
        t.equal(res.statusCode, 404, `${method} ${url}: ${res.body}`);
        t.equal(res.json().type, 'not_found', `${method} ${url}`);
      }
    }
  }
});

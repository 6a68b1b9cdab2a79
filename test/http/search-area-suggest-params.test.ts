// The parameters of the second search round (docs/partners/search.md) at the HTTP edge: radius, bbox
// and sort of the Solr mode, and GET /:country/suggest. Bad input is a 400 Error object naming the
// parameter, never a 500; the suggest route is authenticated and documented like every /:country route.
import t, { type Test } from 'tap';
import { build } from '../helper.js';

const { app, partner } = await build(t);
const { auth } = await partner();
const get = (url: string, headers: Record<string, string> = auth) => app.inject({ url, headers });

async function refused(t: Test, url: string, detail: RegExp) {
  const res = await get(url);
  t.equal(res.statusCode, 400, url);
  const body = res.json();
  t.equal(body.type, 'validation', url);
  t.ok(
    body.details.some((d: string) => detail.test(d)),
    `${url}: ${JSON.stringify(body.details)}`,
  );
}

t.test('radius, bbox and sort answer 400 when they do not fit', async (t) => {
  const solr = '/de/listings?solr=true&what=pizza';
  for (const [query, detail] of [
    ['&lat=52.5&lon=13.4&radius=0.05', /^radius: must be a number of km from 0.1 to 100$/],
    ['&lat=52.5&lon=13.4&radius=100.5', /^radius: must be a number of km from 0.1 to 100$/],
    ['&lat=52.5&lon=13.4&radius=abc', /^radius: /],
    ['&radius=5', /^radius: only with lat and lon$/],
    ['&bbox=13.3,52.4,13.5', /^bbox: must be minLon,minLat,maxLon,maxLat/],
    ['&bbox=13.5,52.4,13.3,52.6', /^bbox: minLon must be less than maxLon$/],
    ['&bbox=13.3,52.6,13.5,52.4', /^bbox: minLat must be less than maxLat$/],
    ['&bbox=13.3,-95,13.5,52.6', /^bbox: latitudes must be between -90 and 90$/],
    ['&bbox=13.3,52.4,13.5,52.6&lat=52.5&lon=13.4', /^bbox: not with lat and lon; give one area$/],
    ['&sort=nearest', /^sort: must be relevance or distance$/],
    ['&sort=distance', /^sort: distance needs lat and lon$/],
  ] as const)
    await refused(t, `${solr}${query}`, detail);
  await refused(t, '/de/listings?ids=1&radius=3', /^radius: only with solr=true$/);
  await refused(t, '/de/listings?ids=1&sort=distance', /^sort: only with solr=true$/);
});

t.test('valid radius, bbox and sort answer 200', async (t) => {
  for (const query of [
    'what=pizza&lat=52.5&lon=13.4&radius=0.1&sort=distance',
    'what=pizza&lat=52.5&lon=13.4&radius=100&sort=relevance',
    'bbox=13.3,52.4,13.5,52.6',
    'lat=52.5&lon=13.4&sort=relevance',
  ]) {
    const res = await get(`/de/listings?solr=true&${query}`);
    t.equal(res.statusCode, 200, `${query}: ${res.body}`);
  }
});

t.test('suggest answers 400 for a missing, empty, punctuation-only or too long q, a bad limit, half a centre', async (t) => {
  for (const [query, detail] of [
    ['', /^q: /],
    ['q=', /^q: must be 1–100 characters$/],
    [`q=${'a'.repeat(101)}`, /^q: must be 1–100 characters$/],
    ['q=%26%20-', /^q: must contain a letter or digit$/],
    ['q=ab&limit=0', /^limit: must be an integer from 1 to 10$/],
    ['q=ab&limit=11', /^limit: must be an integer from 1 to 10$/],
    ['q=ab&lat=52.5', /^lat, lon: give both or neither$/],
    ['q=ab&lat=91&lon=0', /^lat: must be a number between -90 and 90$/],
    ['q=ab&what=x', /what/],
  ] as const)
    await refused(t, `/de/suggest?${query}`, detail);
});

t.test('suggest needs a key and an enabled country, and answers its schema', async (t) => {
  t.equal((await get('/de/suggest?q=ab', {})).statusCode, 401);
  t.equal((await get('/zz/suggest?q=ab')).statusCode, 404);
  const res = await get('/de/suggest?q=B%C3%A4ck&limit=2');
  t.equal(res.statusCode, 200);
  t.ok(Array.isArray(res.json().suggestions) && res.json().suggestions.length <= 2);
});

t.test('the OpenAPI document describes the new parameters and the endpoint', async (t) => {
  const doc = (await app.inject({ url: '/openapi.json' })).json();
  const params = (path: string) => (doc.paths[path].get.parameters as { name: string }[]).map((p) => p.name);
  t.ok(['radius', 'bbox', 'sort'].every((name) => params('/{country}/listings').includes(name)));
  t.same(
    params('/{country}/suggest')
      .filter((name) => name !== 'country')
      .sort(),
    ['lat', 'limit', 'lon', 'q'],
  );
  t.ok(doc.paths['/{country}/suggest'].get.responses['200']);
});

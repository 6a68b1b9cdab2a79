// The analyst role and the /analytics door (docs/contract.md §22, docs/analytics.md): who may use
// it, what it refuses, what it leaves out of answers, and what it logs and counts.
import t from 'tap';
import { createLogger } from '../../src/platform/logger.js';
import { build, eventually, INDEXED_WITHIN_MS, listingInput, runId, startIndexer } from '../helper.js';

const lines: string[] = [];
const capture = createLogger('info', 'test', {
  write: (line: string) => {
    lines.push(line);
  },
});
const { app, deps, partner } = await build(t, { logger: capture });
await startIndexer(t, deps);
const owner = await partner();
const analyst = await partner('analyst');
const admin = await partner('admin');

const post = (url: string, auth: { authorization: string }, payload?: object) => app.inject({ method: 'POST', url, headers: auth, ...(payload ? { payload } : {}) });
const search = (body: object, auth = analyst.auth, target = 'listings-de') => post(`/analytics/${target}/_search`, auth, body);

const word = `analytik${runId.replace(/\d/g, 'q')}`;
const ids: string[] = [];
for (let n = 0; n < 3; n++) {
  const res = await post('/de/listings', owner.auth, listingInput({ name: `${word} Laden ${n}` }));
  ids.push(res.json().id);
}
const ours = { query: { bool: { filter: [{ terms: { lid: ids.map(Number) } }] } } };
await eventually(async () => ((await search({ ...ours, size: 0 })).json().hits?.total.value === 3 ? true : undefined), INDEXED_WITHIN_MS, 'the listings indexed');

t.test('an analyst reads as a partner that has claimed nothing, and every write is 403', async (t) => {
  const read = await app.inject({ url: `/de/listings/${ids[0]}`, headers: analyst.auth });
  t.equal(read.statusCode, 200);
  const searched = await app.inject({ url: `/de/listings?ids=${ids.join(',')}`, headers: analyst.auth });
  t.equal(searched.statusCode, 200);
  t.equal(searched.json().numFound, 3);
  t.equal((await app.inject({ url: '/webhooks', headers: analyst.auth })).statusCode, 200);
  const writes: [string, string, object?][] = [
    ['POST', '/de/listings', listingInput()],
    ['PUT', `/de/listings/${ids[0]}`, listingInput()],
    ['DELETE', `/de/listings/${ids[0]}`],
    ['PUT', `/de/listings/${ids[1]}/claim`],
    ['PUT', `/de/listings/${ids[1]}/offer`, { message: 'x', url: 'https://example.com' }],
    ['POST', '/de/listings/match', { name: 'x', zip: '10115', place: 'Berlin' }],
    ['POST', '/webhooks', { url: 'https://example.com/hook', events: ['*'] }],
  ];
  for (const [method, url, payload] of writes) {
    const res = await app.inject({ method: method as 'POST', url, headers: analyst.auth, ...(payload ? { payload } : {}) });
    t.equal(res.statusCode, 403, `${method} ${url}`);
    t.equal(res.json().type, 'forbidden');
  }
  t.equal((await app.inject({ url: `/de/listings/${ids[1]}`, headers: owner.auth })).json().claimed, true, 'nothing changed');
});

t.test('/analytics admits analyst and admin keys; partners get 403, unknown targets 404', async (t) => {
  t.equal((await search({ size: 0 }, owner.auth)).statusCode, 403);
  t.equal((await search({ size: 0 }, admin.auth)).statusCode, 200);
  t.equal((await app.inject({ method: 'POST', url: '/analytics/listings/_search', payload: {} })).statusCode, 401);
  for (const target of ['listings', 'listings-de', 'categories']) t.equal((await search({ size: 0 }, analyst.auth, target)).statusCode, 200, target);
  for (const target of ['listings-xx', 'partners', 'listings-de-2026', '_all', 'test-listings-de']) {
    const res = await search({ size: 0 }, analyst.auth, target);
    t.equal(res.statusCode, 404, target);
    t.equal(res.json().type, 'not_found');
  }
});

t.test('scripts, script fields, runtime mappings, stored fields and profiling are refused anywhere in the body', async (t) => {
  const bodies: Record<string, object> = {
    'a script in a bool': { query: { bool: { must: [{ match_all: {} }], filter: [{ script: { script: { source: 'true' } } }] } } },
    'a script in an aggregation': { size: 0, aggs: { by_region: { terms: { field: 'region' }, aggs: { s: { sum: { script: { source: '1' } } } } } } },
    scripted_metric: { size: 0, aggs: { m: { scripted_metric: { map_script: 'state.x = 1' } } } },
    script_fields: { script_fields: { x: { script: '1' } } },
    runtime_mappings: { runtime_mappings: { x: { type: 'keyword' } } },
    stored_fields: { stored_fields: ['internal.listing_text'] },
    'stored_fields in top_hits': { size: 0, aggs: { t: { top_hits: { stored_fields: ['internal.listing_text'] } } } },
    profile: { profile: true },
  };
  for (const [name, body] of Object.entries(bodies)) {
    const res = await search(body);
    t.equal(res.statusCode, 400, name);
    t.equal(res.json().type, 'validation', name);
  }
  t.equal((await search({ size: 10_001 })).statusCode, 400, 'size above 10 000');
  t.equal((await search({ from: 9_990, size: 20 })).statusCode, 400, 'from + size above 10 000');
  t.equal((await search({ ...ours, size: 10_000 })).statusCode, 200, 'size 10 000 is fine');
  const bad = await search({ query: { no_such_query: {} } });
  t.equal(bad.statusCode, 400, "OpenSearch's own refusal is the analyst's to fix");
  t.match(bad.json().details.join(' '), /no_such_query/);
});

t.test('internal fields never appear in _source, fields or docvalue_fields answers, top_hits included', async (t) => {
  const res = await search({
    ...ours,
    size: 3,
    _source: true,
    fields: ['*'],
    docvalue_fields: ['internal.result_view', 'region'],
    aggs: { top: { top_hits: { size: 1, _source: ['internal.*', 'name'], docvalue_fields: ['internal.result_view'] } } },
  });
  t.equal(res.statusCode, 200);
  const body = res.json();
  t.equal(body.hits.hits.length, 3);
  t.equal(body.hits.hits[0]._source.name.startsWith(word), true, 'the rest of _source is there');
  t.same(body.hits.hits[0].fields.region, ['Berlin'], 'and the other fields');
  t.notMatch(res.body, /internal|name_fold|_del1|result_view|listing_text|open_weekly/, 'nothing internal anywhere');
  const categories = await search({ size: 1, _source: true, fields: ['*'] }, analyst.auth, 'categories');
  t.equal(categories.statusCode, 200);
  t.notMatch(categories.body, /internal|name_fold/, 'nor in the categories');
});

t.test('search_after with a sort reads on past any page', async (t) => {
  const page = async (after?: unknown[]) => (await search({ ...ours, size: 2, sort: [{ lid: 'asc' }], _source: ['lid'], ...(after ? { search_after: after } : {}) })).json().hits.hits;
  const first = await page();
  const second = await page(first.at(-1).sort);
  t.same(
    [...first, ...second].map((h: { _source: { lid: number } }) => String(h._source.lid)),
    ids,
    'every listing once, in order',
  );
});

t.test('_count, _mapping and _field_caps', async (t) => {
  const count = await post('/analytics/listings-de/_count', analyst.auth, ours);
  t.equal(count.statusCode, 200);
  t.equal(count.json().count, 3);
  t.equal((await post('/analytics/listings-de/_count', analyst.auth, { ...ours, aggs: {} })).statusCode, 400, 'a count takes a query only');
  t.equal((await post('/analytics/listings/_count', analyst.auth)).statusCode, 200, 'no body: every document');
  const mapping = await app.inject({ url: '/analytics/listings-de/_mapping', headers: analyst.auth });
  t.equal(mapping.statusCode, 200);
  const [index] = Object.values(mapping.json()) as { mappings: { properties: Record<string, unknown> } }[];
  t.ok(index!.mappings.properties.region && index!.mappings.properties.tiles, 'the analyst fields are mapped');
  const caps = await post('/analytics/listings/_field_caps?fields=region,completeness', analyst.auth);
  t.equal(caps.statusCode, 200);
  t.same(Object.keys(caps.json().fields).sort(), ['completeness', 'region']);
  t.equal((await app.inject({ url: '/analytics/listings-de/_mapping', headers: owner.auth })).statusCode, 403);
});

t.test('requests are logged without their bodies and counted in the metrics', async (t) => {
  const marker = `geheim${runId}`;
  t.equal((await search({ query: { term: { name: marker } }, size: 0 })).statusCode, 200);
  t.equal((await search({ query: { script: { script: marker } } })).statusCode, 400);
  t.ok(
    lines.some((line) => line.includes('"analytics":"search"') && line.includes('"target":"listings-de"')),
    'one line per request',
  );
  // An aggregation's answer goes back unparsed; its line still says how long it took and how much it matched.
  t.equal((await search({ ...ours, size: 0, aggs: { by_region: { terms: { field: 'region' } } } })).json().aggregations.by_region.buckets[0].doc_count, 3);
  t.ok(
    lines.some((line) => line.includes('"analytics":"search"') && /"took":\d+/.test(line) && line.includes('"hits":3')),
    'with its time and total',
  );
  t.same(
    lines.filter((line) => line.includes(marker)),
    [],
    'no line carries the body',
  );
  const metrics = await deps.metrics.registry.metrics();
  t.match(metrics, /analytics_requests_total\{operation="search",outcome="ok"\} [1-9]/);
  t.match(metrics, /analytics_requests_total\{operation="search",outcome="refused"\} [1-9]/);
  t.match(metrics, /analytics_opensearch_took_seconds_count\{operation="search"\} [1-9]/);
});

t.test("analytics requests count against the key's rate limit", async (t) => {
  // A limit of two, counted apart from the other tests' keys (the namespace follows QUEUE_PREFIX).
  const limited = await build(t, { config: { RATE_LIMIT_MAX: 2, QUEUE_PREFIX: `rl-analytics-${runId}` } });
  const key = await limited.partner('analyst');
  const statuses: number[] = [];
  for (let i = 0; i < 3; i++) statuses.push((await limited.app.inject({ method: 'POST', url: '/analytics/listings/_count', headers: key.auth })).statusCode);
  t.same(statuses, [200, 200, 429]);
});

// Every question of docs/analytics.md, and every saved visualisation of analytics/dashboards.ndjson,
// answers through /analytics on the sample data (src/sample/sample-data.ts), without error and
// with something in each aggregation.
import { readFileSync } from 'node:fs';
import t, { type Test } from 'tap';
import { readQuestions } from '../../scripts/analytics/analyst-questions.js';
import { searchBodyOfVisualisation, type SavedObject } from '../../scripts/analytics/dashboard-objects.js';
import { projectPath } from '../../src/platform/project-paths.js';
import { SAMPLE_LISTINGS, SAMPLE_OFFERS, SAMPLE_REVIEWS } from '../../src/sample/sample-data.js';
import { build, eventually, INDEXED_WITHIN_MS, startIndexer } from '../helper.js';

const { app, deps, partner } = await build(t);
await startIndexer(t, deps);
const demo = await partner();
const admin = await partner('admin');
const analyst = await partner('analyst');
const call = (method: string, url: string, auth: { authorization: string }, payload?: object) => app.inject({ method: method as 'POST', url, headers: auth, ...(payload ? { payload } : {}) });

// The sample data (listings, website reviews, an offer), and a claim taken over and one given up.
const ids: string[] = [];
for (const listing of SAMPLE_LISTINGS) ids.push((await call('POST', '/de/listings', demo.auth, listing)).json().id);
for (const { listing, review } of SAMPLE_REVIEWS) await call('POST', `/de/listings/${ids[listing]}/reviews`, admin.auth, review);
for (const { listing, offer } of SAMPLE_OFFERS) await call('PUT', `/de/listings/${ids[listing]}/offer`, demo.auth, offer);
await call('PUT', `/de/listings/${ids[3]}/claim`, admin.auth);
await call('DELETE', `/de/listings/${ids[4]}/claim`, demo.auth);
const search = (body: object) => call('POST', '/analytics/listings/_search', analyst.auth, body);
await eventually(
  async () => {
    const res = (await search({ size: 0, query: { bool: { filter: [{ terms: { lid: ids.map(Number) } }, { range: { version: { gte: 2 } } }] } } })).json();
    return res.hits?.total.value === ids.length ? true : undefined;
  },
  INDEXED_WITHIN_MS,
  'the sample data indexed with its changes',
);

/** The empty aggregations of an answer: a bucket aggregation without buckets, a metric without a value. */
function emptyAggregations(aggregations: Record<string, { buckets?: unknown[]; value?: unknown }>): string[] {
  return Object.entries(aggregations)
    .filter(([, a]) => (a.buckets ? a.buckets.length === 0 : a.value === null || a.value === undefined))
    .map(([name]) => name);
}

async function answers(t: Test, name: string, body: object) {
  const res = await search(body);
  t.equal(res.statusCode, 200, `${name}: answered`);
  const answer = res.json();
  t.ok(answer.hits.total.value > 0, `${name}: matches listings`);
  t.same(emptyAggregations(answer.aggregations ?? {}), [], `${name}: every aggregation has something`);
}

t.test('every question of docs/analytics.md answers on the sample data', async (t) => {
  const questions = readQuestions();
  t.equal(questions.length, 12);
  for (const question of questions) await answers(t, question.id, question.body);
});

t.test("every saved visualisation's query runs against the real index", async (t) => {
  const objects = readFileSync(projectPath('analytics', 'dashboards.ndjson'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as SavedObject);
  const visualisations = objects.filter((o) => o.type === 'visualization');
  t.equal(visualisations.length, 12);
  for (const visualisation of visualisations) await answers(t, visualisation.id, searchBodyOfVisualisation(visualisation));
});

// The checks of an analyst's OpenSearch body, the filter of internal fields from answers, and what
// the log reads of an answer passed on unparsed (docs/analytics.md).
import t from 'tap';
import { guardedBody, refusedPaths, timeValueMs } from '../../src/analytics/analytics-guard.js';
import { summaryOfSearchText } from '../../src/analytics/answer-summary.js';
import { mayHoldInternalFields, withoutInternalFields } from '../../src/analytics/internal-filter.js';
import { AppError } from '../../src/platform/errors.js';

const refusal = (fn: () => unknown): string[] => {
  try {
    fn();
  } catch (err) {
    if (err instanceof AppError && err.type === 'validation') return err.details;
    throw err;
  }
  return [];
};

t.test('a script is refused wherever it is: in a bool, an aggregation, a sort, a function score', async (t) => {
  t.same(refusedPaths({ query: { bool: { filter: [{ term: { status: 'active' } }, { script: { script: 'true' } }] } } }), ['query.bool.filter[1].script', 'query.bool.filter[1].script.script']);
  t.same(refusedPaths({ aggs: { by_region: { terms: { field: 'region' }, aggs: { x: { sum: { script: { source: '1' } } } } } } }), ['aggs.by_region.aggs.x.sum.script']);
  t.same(refusedPaths({ sort: [{ _script: { type: 'number', script: 'doc.x' } }] }), ['sort[0]._script', 'sort[0]._script.script']);
  t.same(refusedPaths({ query: { function_score: { script_score: { script: '1' } } } }), ['query.function_score.script_score', 'query.function_score.script_score.script']);
  t.same(refusedPaths({ aggs: { m: { scripted_metric: { init_script: 'a', map_script: 'b', combine_script: 'c', reduce_script: 'd' } } } }), [
    'aggs.m.scripted_metric',
    'aggs.m.scripted_metric.init_script',
    'aggs.m.scripted_metric.map_script',
    'aggs.m.scripted_metric.combine_script',
    'aggs.m.scripted_metric.reduce_script',
  ]);
  for (const key of ['script_fields', 'runtime_mappings', 'stored_fields', 'profile']) {
    t.same(refusedPaths({ [key]: {} }), [key], `${key} at the top`);
    t.same(refusedPaths({ aggs: { a: { top_hits: { [key]: ['x'] } } } }), [`aggs.a.top_hits.${key}`], `${key} inside an aggregation`);
  }
  t.same(
    refusedPaths({ query: { match: { description: 'script' } }, aggs: { descriptions: { terms: { field: 'status' } } } }),
    [],
    'names that merely contain "script" and strings that say it are fine',
  );
});

t.test('size, from + size and the timeout', async (t) => {
  t.same(guardedBody({}, '_search', 10_000), { timeout: '10000ms' }, 'a timeout is always applied');
  t.same(guardedBody({ timeout: '2s' }, '_search', 10_000).timeout, '2000ms', 'a shorter one is kept');
  t.same(guardedBody({ timeout: '1h' }, '_search', 10_000).timeout, '10000ms', 'a longer one is cut');
  t.same(guardedBody({ timeout: 500 }, '_search', 10_000).timeout, '500ms', 'a number is milliseconds');
  t.same(
    refusal(() => guardedBody({ timeout: 'soon' }, '_search', 10_000)),
    ['timeout: must be a time value such as "500ms" or "5s"'],
  );
  t.same(
    refusal(() => guardedBody({ size: 10_000 }, '_search', 10_000)),
    [],
  );
  t.same(
    refusal(() => guardedBody({ size: 10_001 }, '_search', 10_000)),
    ['size: must be at most 10000'],
  );
  t.same(
    refusal(() => guardedBody({ from: 9_999, size: 2 }, '_search', 10_000)),
    ['from + size: must be at most 10000; page further with search_after and a sort'],
  );
  t.same(
    refusal(() => guardedBody({ from: 9_995 }, '_search', 10_000)),
    ['from + size: must be at most 10000; page further with search_after and a sort'],
    'size defaults to 10',
  );
  t.same(
    refusal(() => guardedBody({ size: -1, from: 'x' }, '_search', 10_000)),
    ['from: must be a whole number ≥ 0', 'size: must be a whole number ≥ 0'],
  );
  t.equal(refusal(() => guardedBody({ size: 20_000, profile: true, query: { script: {} } }, '_search', 10_000)).length, 3, 'every failed check is named');
  t.same(timeValueMs('1.5s'), 1500);
  t.same(timeValueMs('100micros'), 0.1);
});

t.test('a count takes a query only; field caps an index_filter only, and no timeout', async (t) => {
  t.same(guardedBody({ query: { match_all: {} } }, '_count', 5000), { query: { match_all: {} }, timeout: '5000ms' });
  t.same(
    refusal(() => guardedBody({ query: {}, aggs: {} }, '_count', 5000)),
    ['aggs: _count takes only query'],
  );
  t.same(guardedBody({ index_filter: { term: { cc: 'de' } } }, '_field_caps', 5000), { index_filter: { term: { cc: 'de' } } });
  t.same(
    refusal(() => guardedBody({ index_filter: { script: {} } }, '_field_caps', 5000)),
    ['index_filter.script: not allowed through /analytics (docs/analytics.md "What the door refuses")'],
  );
});

t.test('internal fields leave every hit: _source, fields, highlight, top_hits and inner_hits', async (t) => {
  const hit = () => ({
    _index: 'listings-de-1',
    _id: 'de:1',
    _source: { name: 'A', internal: { name_fold: 'a' } },
    fields: { 'internal.result_view': ['{}'], region: ['Berlin'] },
    highlight: { 'internal.name_fold': ['<em>a</em>'], name: ['<em>A</em>'] },
  });
  const answer = withoutInternalFields({
    took: 1,
    hits: { total: { value: 1 }, hits: [{ ...hit(), inner_hits: { more: { hits: { hits: [hit()] } } } }] },
    aggregations: { top: { hits: { hits: [hit()] } }, by_region: { buckets: [{ key: 'Berlin', doc_count: 1, top: { hits: { hits: [hit()] } } }] } },
  });
  const clean = { _index: 'listings-de-1', _id: 'de:1', _source: { name: 'A' }, fields: { region: ['Berlin'] }, highlight: { name: ['<em>A</em>'] } };
  t.same(answer.hits.hits[0], { ...clean, inner_hits: { more: { hits: { hits: [clean] } } } });
  t.same(answer.aggregations.top.hits.hits[0], clean);
  t.same(answer.aggregations.by_region.buckets[0]!.top.hits.hits[0], clean);
  t.notMatch(JSON.stringify(answer), /internal/);
});

t.test('an answer that names no internal field passes on unparsed; one that may is filtered', async (t) => {
  const aggregation = JSON.stringify({
    took: 3,
    timed_out: false,
    _shards: { total: 1 },
    hits: { total: { value: 7, relation: 'eq' }, hits: [] },
    aggregations: { by_region: { buckets: [{ key: 'internal affairs', doc_count: 7 }] } },
  });
  t.equal(mayHoldInternalFields(aggregation), false, 'a bucket key with the word in it is no internal field');
  t.equal(mayHoldInternalFields('{"hits":{"hits":[{"_source":{"name":"x","internal":{"name_fold":"x"}}}]}}'), true, 'in _source');
  t.equal(mayHoldInternalFields('{"hits":{"hits":[{"fields":{"internal.result_view":["x"]}}]}}'), true, 'by its path in fields');
});

t.test("the log reads took, timed_out and the total from an answer's head, and parses one that begins otherwise", async (t) => {
  const head = '{"took":12,"timed_out":true,"_shards":{"total":1,"successful":1,"skipped":0,"failed":0},"hits":{"total":{"value":4,"relation":"eq"}';
  t.same(summaryOfSearchText(`${head},"max_score":null,"hits":[]}}`), { took: 12, timedOut: true, hits: 4 });
  const failedShard = { took: 5, timed_out: false, _shards: { total: 2, failed: 1, failures: [{ shard: 0, reason: { type: 'x' } }] }, hits: { total: { value: 2, relation: 'eq' }, hits: [] } };
  t.same(summaryOfSearchText(JSON.stringify(failedShard)), { took: 5, timedOut: false, hits: 2 }, 'a shard failure nests in _shards: parsed');
  t.same(summaryOfSearchText(JSON.stringify({ took: 1, timed_out: false, _shards: {}, hits: { max_score: null, hits: [] } })), { took: 1, timedOut: false, hits: undefined }, 'no total tracked');
});

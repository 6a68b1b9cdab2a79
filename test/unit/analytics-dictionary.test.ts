// The data dictionary covers every mapped field, and the analysts' generated files are what the
// generator makes of it (npm run docs:analytics).
import { readFileSync } from 'node:fs';
import t from 'tap';
import { mappedFields, readDictionary, readQuestions } from '../../scripts/analytics/analyst-questions.js';
import { dashboardObjects, kueryOf, searchBodyOfVisualisation, toNdjson } from '../../scripts/analytics/dashboard-objects.js';
import { renderAnalyticsDoc } from '../../scripts/analytics/render-analytics-doc.js';
import { projectPath } from '../../src/platform/project-paths.js';

const read = (...path: string[]) => readFileSync(projectPath(...path), 'utf8');
const dictionary = readDictionary();
const questions = readQuestions();

t.test('every mapped field has one entry of the same type, and every entry a mapped field', async (t) => {
  for (const [index, { mapping, fields }] of Object.entries(dictionary.indices)) {
    const mapped = mappedFields((JSON.parse(read(mapping)) as { mappings: { properties: never } }).mappings.properties);
    t.same(fields.map((f) => [f.field, f.type]).sort(), mapped.map((f) => [f.field, f.type]).sort(), `${index}: the dictionary and ${mapping} agree`);
    for (const f of fields) t.ok(f.meaning.trim().length > 10, `${index}.${f.field} says what it means`);
    t.equal(new Set(fields.map((f) => f.field)).size, fields.length, `${index}: one entry per field`);
  }
});

t.test('a field says it is not in _source exactly when the mapping leaves it out', async (t) => {
  for (const [index, { mapping, fields }] of Object.entries(dictionary.indices)) {
    const excluded = new Set((JSON.parse(read(mapping)) as { mappings: { _source?: { excludes?: string[] } } }).mappings._source?.excludes ?? []);
    for (const f of fields) t.equal(f.meaning.includes('not in `_source`'), excluded.has(f.field), `${index}.${f.field}`);
  }
});

t.test('docs/analytics.md and analytics/dashboards.ndjson are what npm run docs:analytics writes', async (t) => {
  t.equal(read('docs', 'analytics.md'), renderAnalyticsDoc(dictionary, questions), 'docs/analytics.md: run npm run docs:analytics');
  t.equal(read('analytics', 'dashboards.ndjson'), toNdjson(dashboardObjects(questions)), 'analytics/dashboards.ndjson: run npm run docs:analytics');
});

t.test("twelve questions, each drawn by one visualisation whose query is the question's own", async (t) => {
  t.equal(questions.length, 12);
  const objects = dashboardObjects(questions);
  t.same(
    objects.map((o) => o.type),
    ['index-pattern', ...questions.map(() => 'visualization'), 'dashboard'],
  );
  t.same(objects[0]!.attributes, { title: 'listings', timeFieldName: 'created_at' }, 'created_at is the time field');
  const dashboard = objects.at(-1)!;
  t.same(
    dashboard.references.map((r) => r.id),
    objects.slice(1, -1).map((o) => o.id),
    'the dashboard shows every visualisation',
  );
  questions.forEach((question, i) => {
    const body = searchBodyOfVisualisation(objects[i + 1]!);
    t.same(body.query ?? null, question.body.query ?? null, `${question.id}: the same filter`);
    const flat = JSON.stringify(body.aggs);
    for (const field of JSON.stringify(question.body.aggs).match(/"field":"[^"]+"/g)!) t.ok(flat.includes(field), `${question.id}: ${field}`);
  });
  t.equal(kueryOf({ bool: { filter: [{ exists: { field: 'rating' } }, { term: { has_offer: true } }] } }), 'rating:* and has_offer:true');
});

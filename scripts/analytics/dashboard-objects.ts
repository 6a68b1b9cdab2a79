// OpenSearch Dashboards saved objects of the twelve questions (analytics/questions.json): an index
// pattern over the `listings` alias with `created_at` as its time field, one visualisation per
// question and a dashboard of them all. Only aggregations the minimal distribution has (terms,
// histograms, averages): no geo-grid, no scripted fields. Pure; `npm run docs:analytics` writes
// analytics/dashboards.ndjson, which docker-compose.yml's dashboards-setup service imports.
import type { AggregationNode, Chart, Question } from './analyst-questions.js';

export const INDEX_PATTERN_ID = 'listings-analytics';
export const DASHBOARD_ID = 'listings-analytics-questions';

type VisAggregation = { id: string; enabled: true; type: string; schema: string; params: Record<string, unknown> };
export interface SavedObject {
  type: 'index-pattern' | 'visualization' | 'dashboard';
  id: string;
  attributes: Record<string, unknown>;
  references: { name: string; type: string; id: string }[];
}

const BUCKETS = new Set(['terms', 'histogram', 'date_histogram']);

/** The chain of aggregations of a question, top down: buckets, then at most one metric. */
function chain(aggs: Record<string, AggregationNode>): { type: string; params: Record<string, unknown> }[] {
  const [entry] = Object.entries(aggs);
  if (!entry) return [];
  const [, node] = entry;
  const type = Object.keys(node).find((key) => key !== 'aggs')!;
  return [{ type, params: node[type] as Record<string, unknown> }, ...(node.aggs ? chain(node.aggs) : [])];
}

/** Dashboards' parameters of one bucket aggregation, from its OpenSearch form. */
function bucketParams(type: string, p: Record<string, unknown>): Record<string, unknown> {
  switch (type) {
    case 'terms':
      return {
        field: p.field,
        size: p.size ?? 10,
        order: 'desc',
        orderBy: '1',
        otherBucket: false,
        missingBucket: p.missing !== undefined,
        missingBucketLabel: p.missing ?? 'Missing',
        ...(p.include ? { include: p.include } : {}),
      };
    case 'histogram':
      return { field: p.field, interval: p.interval, min_doc_count: (p.min_doc_count ?? 0) === 1, has_extended_bounds: false, extended_bounds: {} };
    case 'date_histogram':
      return { field: p.field, interval: 'w', min_doc_count: p.min_doc_count ?? 1, extended_bounds: {}, useNormalizedOpenSearchInterval: true, drop_partials: false };
    default:
      throw new Error(`no Dashboards form for a ${type} aggregation`);
  }
}

/** Dashboards' query of a question's filters: `field:*` for exists, `field:value` for a term. */
export function kueryOf(query: Record<string, unknown> | undefined): string {
  const filters = (query?.bool as { filter?: Record<string, Record<string, unknown>>[] } | undefined)?.filter ?? [];
  return filters
    .map((clause) => {
      if (clause.exists) return `${clause.exists.field as string}:*`;
      const [[field, value]] = Object.entries(clause.term ?? {}) as [[string, unknown]];
      return `${field}:${String(value)}`;
    })
    .join(' and ');
}

const axisParams = (chart: Chart, label: string) => ({
  type: chart,
  grid: { categoryLines: false },
  addTooltip: true,
  addLegend: true,
  legendPosition: 'right',
  times: [],
  addTimeMarker: false,
  labels: { show: false },
  thresholdLine: { show: false, value: 10, width: 1, style: 'full', color: '#E7664C' },
  categoryAxes: [
    {
      id: 'CategoryAxis-1',
      type: 'category',
      position: chart === 'horizontal_bar' ? 'left' : 'bottom',
      show: true,
      style: {},
      scale: { type: 'linear' },
      labels: { show: true, filter: chart !== 'horizontal_bar', truncate: 100 },
      title: {},
    },
  ],
  valueAxes: [
    {
      id: 'ValueAxis-1',
      name: 'LeftAxis-1',
      type: 'value',
      position: chart === 'horizontal_bar' ? 'bottom' : 'left',
      show: true,
      style: {},
      scale: { type: 'linear', mode: 'normal' },
      labels: { show: true, rotate: 0, filter: false, truncate: 100 },
      title: { text: label },
    },
  ],
  seriesParams: [
    {
      show: true,
      type: chart === 'line' ? 'line' : 'histogram',
      mode: chart === 'line' ? 'normal' : 'stacked',
      data: { label, id: '1' },
      valueAxis: 'ValueAxis-1',
      drawLinesBetweenPoints: true,
      lineWidth: 2,
      showCircles: true,
    },
  ],
});

function chartParams(chart: Chart, label: string): Record<string, unknown> {
  if (chart === 'pie') return { type: 'pie', addTooltip: true, addLegend: true, legendPosition: 'right', isDonut: true, labels: { show: false, values: true, last_level: true, truncate: 100 } };
  if (chart === 'table') return { perPage: 20, showPartialRows: false, showMetricsAtAllLevels: false, showTotal: false, totalFunc: 'sum', percentageCol: '' };
  return axisParams(chart, label);
}

/** The visualisation state of a question: its metric as aggregation 1, its buckets after it. */
export function visStateOf(question: Question): { title: string; type: Chart; params: Record<string, unknown>; aggs: VisAggregation[] } {
  const steps = chain(question.body.aggs);
  const metric = steps.find((s) => !BUCKETS.has(s.type));
  const buckets = steps.filter((s) => BUCKETS.has(s.type));
  const schemaOf = (i: number) => (question.chart === 'table' ? 'bucket' : question.chart === 'pie' || i === 0 ? 'segment' : 'group');
  const aggs: VisAggregation[] = [
    metric ? { id: '1', enabled: true, type: metric.type, schema: 'metric', params: { field: metric.params.field } } : { id: '1', enabled: true, type: 'count', schema: 'metric', params: {} },
    ...buckets.map((b, i) => ({ id: String(i + 2), enabled: true as const, type: b.type, schema: schemaOf(i), params: bucketParams(b.type, b.params) })),
  ];
  return { title: question.title, type: question.chart, params: chartParams(question.chart, metric ? `${metric.type} ${String(metric.params.field)}` : 'Listings'), aggs };
}

const searchSource = (query: string, withIndex: boolean) =>
  JSON.stringify({
    query: { query, language: 'kuery' },
    filter: [],
    ...(withIndex ? { indexRefName: 'kibanaSavedObjectMeta.searchSourceJSON.index' } : {}),
  });

/** The saved objects, in the order an import needs them: the index pattern, the visualisations, the dashboard. */
export function dashboardObjects(questions: Question[]): SavedObject[] {
  const visualisations: SavedObject[] = questions.map((question) => ({
    type: 'visualization',
    id: `listings-analytics-${question.id}`,
    attributes: {
      title: question.title,
      description: question.why,
      version: 1,
      uiStateJSON: '{}',
      visState: JSON.stringify(visStateOf(question)),
      kibanaSavedObjectMeta: { searchSourceJSON: searchSource(kueryOf(question.body.query), true) },
    },
    references: [{ name: 'kibanaSavedObjectMeta.searchSourceJSON.index', type: 'index-pattern', id: INDEX_PATTERN_ID }],
  }));
  // Two panels a row, each half the dashboard wide.
  const panels = visualisations.map((_, i) => ({
    version: '3.6.0',
    panelIndex: String(i + 1),
    panelRefName: `panel_${i}`,
    embeddableConfig: {},
    gridData: { x: (i % 2) * 24, y: Math.floor(i / 2) * 15, w: 24, h: 15, i: String(i + 1) },
  }));
  return [
    { type: 'index-pattern', id: INDEX_PATTERN_ID, attributes: { title: 'listings', timeFieldName: 'created_at' }, references: [] },
    ...visualisations,
    {
      type: 'dashboard',
      id: DASHBOARD_ID,
      attributes: {
        title: 'Listings: twelve questions',
        description: 'The questions of docs/analytics.md',
        version: 1,
        hits: 0,
        panelsJSON: JSON.stringify(panels),
        optionsJSON: JSON.stringify({ hidePanelTitles: false, useMargins: true }),
        // Listings created at any time, not the last 15 minutes Dashboards shows by default.
        timeRestore: true,
        timeFrom: 'now-20y',
        timeTo: 'now',
        refreshInterval: { pause: true, value: 0 },
        kibanaSavedObjectMeta: { searchSourceJSON: searchSource('', false) },
      },
      references: visualisations.map((v, i) => ({ name: `panel_${i}`, type: 'visualization', id: v.id })),
    },
  ];
}

/** The objects as Dashboards' import reads them: one JSON object a line. */
export const toNdjson = (objects: SavedObject[]) => `${objects.map((o) => JSON.stringify(o)).join('\n')}\n`;

/**
 * The OpenSearch body a saved visualisation makes Dashboards send, rebuilt from the saved object
 * alone (its aggregations and its query): what the test runs against the real index.
 */
export function searchBodyOfVisualisation(object: SavedObject): Record<string, unknown> {
  const state = JSON.parse(object.attributes.visState as string) as { aggs: VisAggregation[] };
  const source = JSON.parse((object.attributes.kibanaSavedObjectMeta as { searchSourceJSON: string }).searchSourceJSON) as { query: { query: string } };
  const metric = state.aggs.find((a) => a.schema === 'metric')!;
  const metricAggs = metric.type === 'count' ? {} : { 1: { [metric.type]: { field: metric.params.field } } };
  const bucketOf = (a: VisAggregation): Record<string, unknown> => {
    const p = a.params;
    if (a.type === 'terms') {
      return {
        terms: {
          field: p.field,
          size: p.size,
          order: metric.type === 'count' ? { _count: 'desc' } : { 1: 'desc' },
          ...(p.missingBucket ? { missing: p.missingBucketLabel } : {}),
          ...(p.include ? { include: p.include } : {}),
        },
      };
    }
    if (a.type === 'histogram') return { histogram: { field: p.field, interval: p.interval, min_doc_count: p.min_doc_count ? 1 : 0 } };
    return { date_histogram: { field: p.field, calendar_interval: 'week', min_doc_count: p.min_doc_count } };
  };
  const buckets = state.aggs.filter((a) => a.schema !== 'metric');
  const nested = buckets.reduceRight<Record<string, unknown>>((inner, a) => ({ [a.id]: { ...bucketOf(a), ...(Object.keys(inner).length ? { aggs: inner } : {}) } }), metricAggs);
  const filter = source.query.query
    ? source.query.query.split(' and ').map((term) => {
        const [field, value] = term.split(':') as [string, string];
        return value === '*' ? { exists: { field } } : { term: { [field]: value === 'true' ? true : value === 'false' ? false : value } };
      })
    : [];
  return { size: 0, ...(filter.length ? { query: { bool: { filter } } } : {}), aggs: nested };
}

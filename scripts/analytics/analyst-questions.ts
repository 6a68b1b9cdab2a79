// The analysts' data files (analytics/dictionary.json, analytics/questions.json), typed and read.
import { readFileSync } from 'node:fs';
import { projectPath } from '../../src/platform/project-paths.js';

export interface DictionaryField {
  field: string;
  type: string;
  meaning: string;
  example: unknown;
}

export interface Dictionary {
  indices: Record<string, { mapping: string; targets: string; fields: DictionaryField[] }>;
}

/** How Dashboards draws a question (analytics/dashboards.ndjson). */
export type Chart = 'horizontal_bar' | 'histogram' | 'line' | 'pie' | 'table';

export interface Question {
  id: string;
  title: string;
  why: string;
  chart: Chart;
  target: string;
  /** The body of POST /analytics/<target>/_search that answers it. */
  body: { size: 0; query?: Record<string, unknown>; aggs: Record<string, AggregationNode> };
}

/** One aggregation of a question: a bucket aggregation or a metric, with at most one aggregation below it. */
export type AggregationNode = Record<string, unknown> & { aggs?: Record<string, AggregationNode> };

const readJson = <T>(...path: string[]): T => JSON.parse(readFileSync(projectPath(...path), 'utf8')) as T;

export const readDictionary = () => readJson<Dictionary>('analytics', 'dictionary.json');
export const readQuestions = () => readJson<{ questions: Question[] }>('analytics', 'questions.json').questions;

/** Every field a mapping defines, objects and multi-fields included (`name.kw`), with its type. */
export function mappedFields(properties: Record<string, { type?: string; properties?: object; fields?: object }>, prefix = ''): { field: string; type: string }[] {
  return Object.entries(properties).flatMap(([name, definition]) => {
    const field = `${prefix}${name}`;
    const own = { field, type: definition.type ?? 'object' };
    if (definition.properties) return [own, ...mappedFields(definition.properties as never, `${field}.`)];
    const multi = Object.entries((definition.fields ?? {}) as Record<string, { type: string }>).map(([sub, d]) => ({ field: `${field}.${sub}`, type: d.type }));
    return [own, ...multi];
  });
}

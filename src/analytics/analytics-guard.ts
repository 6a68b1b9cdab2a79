// The checks an analyst's OpenSearch body passes before it is sent (docs/contract.md §22,
// docs/security.md): nothing that runs code or bypasses the document's _source anywhere in it, a
// bounded page, and a timeout of at most ANALYTICS_TIMEOUT_MS always applied. Pure.
import { validationError } from '../platform/errors.js';

/**
 * Keys refused wherever they occur, also as the name of an aggregation: scripts of every kind
 * (a `script` in a query, an aggregation or a sort; scripted_metric's four scripts), fields
 * computed at search time, stored fields (which would read the internal result views), and
 * profiling.
 */
const REFUSED_KEYS = new Set(['script', 'script_fields', 'runtime_mappings', 'stored_fields', 'profile', 'script_score', 'scripted_metric', 'bucket_script', 'bucket_selector']);
/** scripted_metric's init_script, map_script, combine_script, reduce_script, and any like them. */
const SCRIPT_SUFFIX = /_script$/;

/** The largest page: size, and from + size, of a search (OpenSearch's own default window). */
export const MAX_WINDOW = 10_000;

/** OpenSearch time values: `500ms`, `5s`, `1m`; a bare number is milliseconds. */
const TIME_VALUE = /^(\d+(?:\.\d+)?)(nanos|micros|ms|s|m|h|d)?$/;
const UNIT_MS: Record<string, number> = { nanos: 1e-6, micros: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** Every path in `value` whose key is refused, as `aggs.by_day.aggs.x.script`. */
export function refusedPaths(value: unknown, path = ''): string[] {
  if (Array.isArray(value)) return value.flatMap((item, i) => refusedPaths(item, `${path}[${i}]`));
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, inner]) => {
    const here = path ? `${path}.${key}` : key;
    const refused = REFUSED_KEYS.has(key) || SCRIPT_SUFFIX.test(key) ? [here] : [];
    return [...refused, ...refusedPaths(inner, here)];
  });
}

/** Milliseconds of a time value, or undefined when it is none. */
export function timeValueMs(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value) && value >= 0) return value;
  if (typeof value !== 'string') return undefined;
  const match = TIME_VALUE.exec(value.trim());
  return match ? Number(match[1]) * UNIT_MS[match[2] ?? 'ms']! : undefined;
}

const isCount = (value: unknown): value is number => Number.isInteger(value) && (value as number) >= 0;

export type AnalyticsEndpoint = '_search' | '_count' | '_field_caps';

/** The body members a count and a field-caps request take (OpenSearch's own); a search takes any. */
const ONLY_MEMBERS: Partial<Record<AnalyticsEndpoint, string[]>> = { _count: ['query'], _field_caps: ['index_filter'] };

/**
 * The body to send for an analyst's body: the same, a search's and a count's with a `timeout` of
 * at most `maxTimeoutMs` (set when absent). Throws 400 `validation` naming every failed check.
 */
export function guardedBody(body: Record<string, unknown>, endpoint: AnalyticsEndpoint, maxTimeoutMs: number): Record<string, unknown> {
  const errors = refusedPaths(body).map((path) => `${path}: not allowed through /analytics (docs/analytics.md "What the door refuses")`);
  const only = ONLY_MEMBERS[endpoint];
  if (only) {
    for (const key of Object.keys(body)) if (!only.includes(key)) errors.push(`${key}: ${endpoint} takes only ${only.join(', ')}`);
  } else {
    const from = body.from ?? 0;
    const size = body.size ?? 10;
    if (!isCount(from)) errors.push('from: must be a whole number ≥ 0');
    if (!isCount(size)) errors.push('size: must be a whole number ≥ 0');
    else if (size > MAX_WINDOW) errors.push(`size: must be at most ${MAX_WINDOW}`);
    if (isCount(from) && isCount(size) && size <= MAX_WINDOW && from + size > MAX_WINDOW) {
      errors.push(`from + size: must be at most ${MAX_WINDOW}; page further with search_after and a sort`);
    }
  }
  let timeoutMs = maxTimeoutMs;
  if (body.timeout !== undefined) {
    const asked = timeValueMs(body.timeout);
    if (asked === undefined) errors.push('timeout: must be a time value such as "500ms" or "5s"');
    else timeoutMs = Math.min(Math.max(asked, 1), maxTimeoutMs);
  }
  if (errors.length) throw validationError(errors);
  // OpenSearch's field caps take no timeout; a count is sent as a search of no hits, which does.
  return endpoint === '_field_caps' ? body : { ...body, timeout: `${Math.round(timeoutMs)}ms` };
}

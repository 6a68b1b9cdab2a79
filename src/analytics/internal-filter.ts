// Leaves the internal search fields (src/search/internal-fields.ts) out of an OpenSearch answer
// before an analyst sees it: from every hit's `_source`, `fields` (docvalue_fields answer there)
// and `highlight`, in the top-level hits and in those of top_hits aggregations and inner_hits. Pure;
// changes the answer in place, since it was parsed for this request alone.
import { INTERNAL_OBJECT } from '../search/internal-fields.js';

const PREFIX = `${INTERNAL_OBJECT}.`;
const isInternal = (name: string) => name === INTERNAL_OBJECT || name.startsWith(PREFIX);

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

function filterHit(hit: Json): void {
  if (isObject(hit._source)) delete hit._source[INTERNAL_OBJECT];
  for (const key of ['fields', 'highlight']) {
    const named = hit[key];
    if (isObject(named)) for (const name of Object.keys(named)) if (isInternal(name)) delete named[name];
  }
}

/**
 * Whether an answer's JSON text may hold an internal field: as a member of `_source` (`"internal":`)
 * or by its path (`"internal.name_words"`). Most answers, every aggregation of analyst fields among
 * them, do not, and pass on unparsed; a bucket key spelled so is only a false alarm.
 */
export const mayHoldInternalFields = (text: string) => text.includes(`"${INTERNAL_OBJECT}"`) || text.includes(`"${PREFIX}`);

/** Removes the internal fields from every hit found anywhere in `answer`; returns it. */
export function withoutInternalFields<T>(answer: T): T {
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) {
      value.forEach(walk);
      return;
    }
    if (!isObject(value)) return;
    // A hits object: `{ total, max_score, hits: [hit, …] }`, at the top, in top_hits, in inner_hits.
    if (Array.isArray(value.hits)) for (const hit of value.hits) if (isObject(hit)) filterHit(hit);
    for (const inner of Object.values(value)) walk(inner);
  };
  walk(answer);
  return answer;
}

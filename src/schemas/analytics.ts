// /analytics/<target>/… (docs/contract.md §22): OpenSearch request bodies in, OpenSearch answers out.
// The bodies are OpenSearch's own query language, checked by src/analytics/analytics-guard.ts
// rather than described here field by field.
import { Type, type Static } from '@sinclair/typebox';

export const AnalyticsParamsSchema = Type.Object({
  target: Type.String({ maxLength: 40, description: '`listings` (every country), `listings-<country>` (an enabled country) or `categories`; anything else is 404' }),
});
export type AnalyticsParams = Static<typeof AnalyticsParamsSchema>;

/** An OpenSearch body, or none at all (Fastify validates a missing body as null). */
const openSearchBody = (description: string) => Type.Union([Type.Object({}, { additionalProperties: true }), Type.Null()], { description });

export const AnalyticsSearchBodySchema = openSearchBody(
  'An OpenSearch search body (query, aggs, sort, search_after, _source, fields, docvalue_fields, …). ' +
    'Refused anywhere in it: script, script_fields, runtime_mappings, stored_fields, profile (and every kind of script). ' +
    '`size` ≤ 10 000 and `from + size` ≤ 10 000; `timeout` is at most ANALYTICS_TIMEOUT_MS, and set to it when absent.',
);
export const AnalyticsCountBodySchema = openSearchBody("`{query}`, as OpenSearch's _count takes it; the same checks as a search");
export const AnalyticsFieldCapsBodySchema = openSearchBody("`{index_filter}`, as OpenSearch's _field_caps takes it");
export type AnalyticsBody = Static<typeof AnalyticsSearchBodySchema>;

export const AnalyticsFieldCapsQuerySchema = Type.Object({
  fields: Type.String({ minLength: 1, maxLength: 2000, default: '*', description: 'Comma-separated field names or patterns, as OpenSearch takes them' }),
});

export const OpenSearchAnswerSchema = Type.Object(
  {},
  {
    additionalProperties: true,
    description: "OpenSearch's answer, unchanged but for the internal fields, which never appear in _source, fields, docvalue_fields or highlight",
  },
);
export const AnalyticsCountAnswerSchema = Type.Object(
  {
    count: Type.Integer({ minimum: 0 }),
    _shards: Type.Object({}, { additionalProperties: true }),
  },
  { description: "OpenSearch's _count answer" },
);

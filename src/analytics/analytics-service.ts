// The analysts' read-only door to the index (docs/contract.md §22, docs/analytics.md): an
// OpenSearch body passed through after analytics-guard.ts's checks, the answer passed back without
// the internal fields: a search's answer that holds none goes back as the text OpenSearch wrote,
// unparsed. One log line per request, without its body, and counted in the metrics.
import { errors } from '@opensearch-project/opensearch';
import type { Logger } from 'pino';
import type { OpenSearchClient } from '../opensearch/client.js';
import type { IndexNames } from '../opensearch/index-definitions.js';
import { requestThroughPool, requestTextThroughPool } from '../opensearch/pool-request.js';
import { AppError, notFound, validationError } from '../platform/errors.js';
import type { Metrics } from '../platform/metrics.js';
import { guardedBody } from './analytics-guard.js';
import { summaryOf, summaryOfSearchText, type AnswerSummary } from './answer-summary.js';
import { mayHoldInternalFields, withoutInternalFields } from './internal-filter.js';

export type AnalyticsOperation = 'search' | 'count' | 'mapping' | 'field_caps';

/**
 * The alias a target names: `listings` (every country), `listings-<cc>` (an enabled country) or
 * `categories`; undefined for anything else, which answers 404.
 */
export function targetAlias(target: string, names: IndexNames, countries: readonly string[]): string | undefined {
  if (target === 'listings') return names.listingsAllAlias;
  if (target === 'categories') return names.categoriesAlias;
  const country = /^listings-([a-z]{2})$/.exec(target)?.[1];
  return country && countries.includes(country) ? names.listingsAlias(country) : undefined;
}

/** OpenSearch's reasons for refusing a request, as `type: reason` lines (the analyst wrote the body). */
function refusalReasons(err: InstanceType<typeof errors.ResponseError>): string[] {
  const error = (err.meta.body as { error?: { root_cause?: { type?: string; reason?: string }[]; type?: string; reason?: string } } | null)?.error;
  const causes = error?.root_cause?.length ? error.root_cause : error ? [error] : [];
  return causes.map((c) => `${c.type ?? 'error'}: ${c.reason ?? 'refused'}`).slice(0, 10);
}

type Answer = Record<string, unknown>;
/** A search's answer as the door sends it on: OpenSearch's JSON text, its internal fields left out. */
export type AnswerText = string;
/** The request's logger (its lines carry the request id). */
type RequestLog = Pick<Logger, 'info' | 'debug'>;

export function createAnalyticsService({
  opensearch,
  names,
  countries,
  metrics,
  timeoutMs,
}: {
  opensearch: OpenSearchClient;
  names: IndexNames;
  countries: readonly string[];
  metrics: Pick<Metrics, 'analyticsRequests' | 'analyticsTook'>;
  /** ANALYTICS_TIMEOUT_MS: the longest search OpenSearch runs for an analyst. */
  timeoutMs: number;
}) {
  const aliasOf = (target: string) => {
    const alias = targetAlias(target, names, countries);
    if (!alias) throw notFound(`analytics target "${target}" (listings, listings-<country>, categories)`);
    return alias;
  };

  /**
   * Runs `send` for one request of `operation`, logs it (one line, never the body, with what
   * `summary` reads of the answer) and counts it. OpenSearch's refusal of a
   * body (a 400: an unknown field type, a malformed query) is the analyst's to fix: a 400 with its
   * reasons; a missing index a 404; anything else goes to the error handler (503 when OpenSearch is
   * down or busy).
   */
  async function run<T>(operation: AnalyticsOperation, target: string, log: RequestLog, send: (alias: string) => Promise<T>, summary: (answer: T) => AnswerSummary): Promise<T> {
    let outcome = 'ok';
    try {
      const answer = await send(aliasOf(target));
      const { took, timedOut, hits } = summary(answer);
      if (timedOut === true) outcome = 'timed_out';
      if (took !== undefined) metrics.analyticsTook.observe({ operation }, took / 1000);
      log.info({ analytics: operation, target, took, hits, timedOut }, 'analytics request');
      return answer;
    } catch (err) {
      outcome = err instanceof AppError && err.statusCode < 500 ? 'refused' : 'failed';
      if (err instanceof errors.ResponseError && (err.statusCode === 400 || err.statusCode === 404)) {
        outcome = 'refused';
        throw err.statusCode === 404 ? notFound(`the index of "${target}"`) : validationError(refusalReasons(err));
      }
      throw err;
    } finally {
      // Refused and failed requests are logged by the request log (src/plugins/request-log.ts).
      metrics.analyticsRequests.inc({ operation, outcome });
    }
  }

  /**
   * A search through the pool (as the service's own searches go), timed out by OpenSearch at the
   * body's `timeout`, cancelled a second later if it still runs (`cancel_after_time_interval`), and
   * abandoned by this side two seconds after that.
   */
  const searchRequest = (alias: string, body: Answer) => ({
    path: `/${encodeURIComponent(alias)}/_search`,
    body: JSON.stringify(body),
    params: { cancel_after_time_interval: `${timeoutMs + 1000}ms` },
    timeoutMs: timeoutMs + 3000,
  });
  const searchBody = (alias: string, body: Answer) => requestThroughPool<Answer>(opensearch, searchRequest(alias, body));

  return {
    /**
     * The answer as JSON text: OpenSearch's own when it holds no internal field (a `size: 0`
     * aggregation's always), so that the door adds no parsing and no serialising of a large one.
     */
    search: (target: string, body: Answer, log: RequestLog): Promise<AnswerText> =>
      run(
        'search',
        target,
        log,
        async (alias) => {
          const text = await requestTextThroughPool(opensearch, searchRequest(alias, guardedBody(body, '_search', timeoutMs)));
          return mayHoldInternalFields(text) ? JSON.stringify(withoutInternalFields(JSON.parse(text))) : text;
        },
        summaryOfSearchText,
      ),

    /** A count as OpenSearch's _count answers it, run as a search of no hits so that the timeout applies. */
    count: (target: string, body: Answer, log: RequestLog) =>
      run(
        'count',
        target,
        log,
        async (alias) => {
          const guarded = guardedBody(body, '_count', timeoutMs);
          const answer = await searchBody(alias, { ...guarded, size: 0, track_total_hits: true });
          // A partial count would be a wrong number, unlike a search's partial hits, which say so.
          if (answer.timed_out === true) throw new AppError('unavailable', `the count took longer than ${timeoutMs} ms`);
          return { count: (answer.hits as { total: { value: number } }).total.value, _shards: answer._shards };
        },
        summaryOf,
      ),

    mapping: (target: string, log: RequestLog) => run('mapping', target, log, async (alias) => (await opensearch.indices.getMapping({ index: alias })).body as Answer, summaryOf),

    fieldCaps: (target: string, fields: string, body: Answer, log: RequestLog) =>
      run(
        'field_caps',
        target,
        log,
        async (alias) => {
          return (await opensearch.fieldCaps({ index: alias, fields, body: guardedBody(body, '_field_caps', timeoutMs) })).body as Answer;
        },
        summaryOf,
      ),
  };
}

export type AnalyticsService = ReturnType<typeof createAnalyticsService>;

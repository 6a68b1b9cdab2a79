// Failures of PostgreSQL, OpenSearch and Redis as their clients report them. The error handler
// answers them 503 `unavailable` (docs/contract.md §11) instead of passing their status and
// message on; the logger writes them without the data they carry (queries and their parameters).
import { DrizzleQueryError } from 'drizzle-orm/errors';

export interface ErrorLike {
  name?: unknown;
  message?: unknown;
  code?: unknown;
  cause?: unknown;
  meta?: { statusCode?: unknown };
}

/** `err` and its causes, outermost first. */
export function* errorChain(err: unknown): Generator<ErrorLike> {
  const seen = new Set<unknown>();
  for (let e = err; e !== null && typeof e === 'object' && !seen.has(e); e = (e as ErrorLike).cause) {
    seen.add(e);
    yield e as ErrorLike;
  }
}

const OPENSEARCH_ERRORS = new Set(['ConnectionError', 'NoLivingConnectionsError', 'ResponseError', 'TimeoutError', 'RequestAbortedError', 'SerializationError', 'DeserializationError']);

/** An error of the OpenSearch client: its `meta` holds the whole request, query text included. */
export const isOpenSearchError = (e: ErrorLike): boolean => typeof e.name === 'string' && OPENSEARCH_ERRORS.has(e.name) && typeof e.meta === 'object' && e.meta !== null;

/** pg's DatabaseError: a SQLSTATE and fields such as `detail` that quote the values of a row. */
export const isPostgresError = (e: ErrorLike): boolean => typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code) && typeof (e as { severity?: unknown }).severity === 'string';

/** drizzle's wrapper: its message and fields carry the SQL text and its parameters. */
export const isQueryError = (e: ErrorLike): boolean => e instanceof DrizzleQueryError;

/** A backing service, as the metrics label its errors. */
export type Dependency = 'postgres' | 'opensearch' | 'redis';

// The indexer's own error for one refused item of a _bulk (indexer/bulk-write.ts).
const OPENSEARCH_ITEM_ERROR = 'BulkItemError';
const REDIS_ERRORS = new Set(['ReplyError', 'MaxRetriesPerRequestError']);

/** Which backing service `err` (or one of its causes) came from, by the error classes of their clients. */
export function dependencyOf(err: unknown): Dependency | undefined {
  for (const e of errorChain(err)) {
    const name = typeof e.name === 'string' ? e.name : '';
    if (OPENSEARCH_ERRORS.has(name) || name === OPENSEARCH_ITEM_ERROR) return 'opensearch';
    if (isQueryError(e) || isPostgresError(e)) return 'postgres';
    if (REDIS_ERRORS.has(name)) return 'redis';
  }
  return undefined;
}

/** `busy`: overloaded or timed out, worth a retry soon; `down`: unreachable or broken. */
export type DependencyFailure = 'busy' | 'down';

const NETWORK_DOWN = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND', 'EPIPE']);
const POSTGRES_BUSY = new Set([
  '53300', // too_many_connections
  '57014', // query_canceled: statement_timeout (src/db/client.ts)
  '55P03', // lock_not_available: lock_timeout
]);
const POSTGRES_DOWN = new Set([
  '57P01',
  '57P02',
  '57P03', // shutting down, crashed, not accepting connections yet
  '25P03', // idle_in_transaction_session_timeout ended the session
]);

function failureOf(e: ErrorLike): DependencyFailure | undefined {
  const code = typeof e.code === 'string' ? e.code : '';
  if (NETWORK_DOWN.has(code) || POSTGRES_DOWN.has(code) || code.startsWith('08')) return 'down';
  if (POSTGRES_BUSY.has(code)) return 'busy';
  if (e.name === 'TimeoutError') return 'busy';
  if (e.name === 'ConnectionError' || e.name === 'NoLivingConnectionsError') return 'down';
  if (e.name === 'ResponseError' && isOpenSearchError(e)) {
    const status = Number(e.meta?.statusCode);
    if (status === 429) return 'busy';
    // 404 on a search is a missing index or alias: the index is not set up, not a bad request.
    if (status === 404 || status >= 500) return 'down';
  }
  return undefined;
}

/** How a backing service failed, when `err` (or one of its causes) is such a failure. */
export function dependencyFailure(err: unknown): DependencyFailure | undefined {
  for (const e of errorChain(err)) {
    const failure = failureOf(e);
    if (failure) return failure;
  }
  return undefined;
}

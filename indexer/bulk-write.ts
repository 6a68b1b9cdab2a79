// The one way the indexer writes documents: a `_bulk` request of index and delete actions with
// external versions. The worker (a micro-batch of jobs) and the reindex (a page of listings) both
// call it, so both read a response the same way.
import type { Logger } from 'pino';
import type { OpenSearchClient } from '../src/opensearch/client.js';
import { requestThroughPool } from '../src/opensearch/pool-request.js';

export type BulkAction = { op: 'index'; index: string; id: string; version: number; document: object } | { op: 'delete'; index: string; id: string; version: number };

/**
 * Per action: `written`; `stale` when OpenSearch already holds this version or a newer one (409:
 * external versions make a late or repeated write harmless); or the error of that one action.
 */
export type BulkOutcome = 'written' | 'stale' | BulkItemError;

/** One action of a `_bulk` refused (429 when OpenSearch is overloaded, a mapping error...). */
export class BulkItemError extends Error {
  override name = 'BulkItemError';
  constructor(
    readonly status: number,
    readonly reason: unknown,
  ) {
    super(`bulk action failed with ${status}: ${JSON.stringify(reason)}`);
  }
}

type BulkItem = Record<string, { status: number; error?: unknown }>;

/**
 * The body of a `_bulk`, as the newline-delimited JSON it is sent as: an action line with the
 * external version, then the document of an index action. The benchmark's raw `_bulk` sends the
 * same lines (bench/run.ts).
 */
export function bulkBody(actions: readonly BulkAction[]): string {
  let text = '';
  for (const a of actions) {
    const meta = { _index: a.index, _id: a.id, version: a.version, version_type: 'external' };
    text += a.op === 'index' ? `${JSON.stringify({ index: meta })}\n${JSON.stringify(a.document)}\n` : `${JSON.stringify({ delete: meta })}\n`;
  }
  return text;
}

/** Sends `actions` as one `_bulk`; throws only when the request as a whole fails (OpenSearch down). */
export async function writeBulk(opensearch: OpenSearchClient, actions: BulkAction[], logger: Logger, { requestTimeoutMs }: { requestTimeoutMs?: number } = {}): Promise<BulkOutcome[]> {
  if (actions.length === 0) return [];
  // Through the pool, as searches go (pool-request.ts): the client's `bulk` kept each request's
  // scope, the documents sent included, alive until a full collection.
  const answer = await requestThroughPool<{ took: number; items: BulkItem[] }>(opensearch, {
    path: '/_bulk',
    body: bulkBody(actions),
    contentType: 'application/x-ndjson',
    params: { filter_path: 'took,errors,items.*.status,items.*.error' },
    timeoutMs: requestTimeoutMs,
  });
  const { items } = answer;
  const outcomes = actions.map((action, i): BulkOutcome => {
    const { status, error } = Object.values(items[i]!)[0]!;
    if (status < 300) return 'written';
    if (status === 409) return 'stale';
    // Deleting a document the index never had still records the version (a tombstone): done.
    if (status === 404 && action.op === 'delete') return 'written';
    return new BulkItemError(status, error);
  });
  const failed = outcomes.filter((o) => o instanceof BulkItemError);
  const line = { took: answer.took, items: actions.length, errors: failed.length };
  if (failed.length) logger.warn({ ...line, firstError: failed[0]!.message }, 'bulk write');
  else logger.debug(line, 'bulk write');
  return outcomes;
}

// The one way the indexer writes documents: a `_bulk` request of index and delete actions with
// external versions. The worker (a micro-batch of jobs) and the reindex (a page of listings) both
// call it, so both read a response the same way.
import type { Logger } from 'pino';
import { takeBody, type OpenSearchClient } from '../src/opensearch/client.js';

export type BulkAction =
  | { op: 'index'; index: string; id: string; version: number; document: object }
  | { op: 'delete'; index: string; id: string; version: number };

/**
 * Per action: `written`; `stale` when OpenSearch already holds this version or a newer one (409:
 * external versions make a late or repeated write harmless); or the error of that one action.
 */
export type BulkOutcome = 'written' | 'stale' | BulkItemError;

/** One action of a `_bulk` refused (429 when OpenSearch is overloaded, a mapping error...). */
export class BulkItemError extends Error {
  override name = 'BulkItemError';
  constructor(readonly status: number, readonly reason: unknown) {
    super(`bulk action failed with ${status}: ${JSON.stringify(reason)}`);
  }
}

type BulkItem = Record<string, { status: number; error?: unknown }>;

/**
 * The lines of a `_bulk` body, one object each: an action line with the external version, then the
 * document of an index action. The benchmark's raw `_bulk` sends the same lines (bench/run.ts).
 */
export function bulkLines(actions: readonly BulkAction[]): object[] {
  return actions.flatMap((a) => {
    const meta = { _index: a.index, _id: a.id, version: a.version, version_type: 'external' as const };
    return a.op === 'index' ? [{ index: meta }, a.document] : [{ delete: meta }];
  });
}

/** Sends `actions` as one `_bulk`; throws only when the request as a whole fails (OpenSearch down). */
export async function writeBulk(
  opensearch: OpenSearchClient, actions: BulkAction[], logger: Logger, { requestTimeoutMs }: { requestTimeoutMs?: number } = {},
): Promise<BulkOutcome[]> {
  if (actions.length === 0) return [];
  const res = await opensearch.bulk({ body: bulkLines(actions), filter_path: 'took,errors,items.*.status,items.*.error' }, requestTimeoutMs ? { requestTimeout: requestTimeoutMs } : {});
  const answer = takeBody(res);
  const items = answer.items as unknown as BulkItem[];
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

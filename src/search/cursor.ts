// Cursors of the filtered and Solr-mode searches (docs/contract.md §16, docs/partners/search.md "Paging past
// 10 000"): opaque to clients, base64url of {v, q, a, n}. `q` names the query the cursor belongs
// to, `a` holds the sort values of the last hit returned (OpenSearch's search_after), `n` how many
// results came before the next page (so that `next` is left out once none remain).
import { hash } from 'node:crypto';
import { validationError } from '../platform/errors.js';
import { withMembers, type JsonText } from './json-text.js';

/** Where the next page starts. */
export interface CursorPosition {
  /** The sort values of the last hit returned; empty for an ids search, which pages in memory. */
  after: number[];
  /** Results before the next page. */
  seen: number;
}

const VERSION = 1;

/**
 * The query a cursor belongs to: a hash of the country and of the OpenSearch body without its page
 * (body-text.ts) with the open-hours instant it asks about (`now`, a fixed instant, or none) as a
 * last member `open`. Hashing the built body rather than the parameters treats as one query
 * whatever builds the same body ("pizza" and "Pizza"), lets `limit` change between pages, and
 * refuses a cursor after a deployment changed how the query sorts; a deployment that changes
 * neither keeps the cursors partners hold valid.
 */
export function queryKey(country: string, query: string, open: string | undefined): string {
  // The text JSON.stringify writes for { ...query, open }, without parsing the query again.
  return hash('sha256', `${country}\n${withMembers(query as JsonText<object>, { open: open ?? null })}`, 'base64url').slice(0, 22);
}

export function encodeCursor(key: string, position: CursorPosition): string {
  return Buffer.from(JSON.stringify({ v: VERSION, q: key, a: position.after, n: position.seen })).toString('base64url');
}

const NOT_A_CURSOR = 'cursor: is not a cursor of this search; pass the `next` of the previous answer unchanged';
const OTHER_QUERY = 'cursor: belongs to another query; repeat the query that returned it, changing only cursor and limit';

const isCount = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;

/**
 * The position a cursor names, checked against the query it is used with (`key`) and the number
 * of sort values that query's hits carry (`width`). Anything else is a 400: a cursor that does
 * not decode, has the wrong shape, or belongs to another query.
 */
export function readCursor(cursor: string, key: string, width: number): CursorPosition {
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw validationError([NOT_A_CURSOR]);
  }
  const { v, q, a, n } = (decoded ?? {}) as { v?: unknown; q?: unknown; a?: unknown; n?: unknown };
  if (v !== VERSION || typeof q !== 'string') throw validationError([NOT_A_CURSOR]);
  if (q !== key) throw validationError([OTHER_QUERY]);
  // Every sort ends with the listing id, an integer; the values before it (score, distance) are
  // numbers. Checked here so that a forged value is a 400, never an OpenSearch error.
  const wellFormed = isCount(n) && Array.isArray(a) && a.length === width && a.every((value, i) => (i === width - 1 ? isCount(value) : typeof value === 'number' && Number.isFinite(value)));
  if (!wellFormed) throw validationError([NOT_A_CURSOR]);
  return { after: a as number[], seen: n };
}

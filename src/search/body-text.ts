// A search body written as JSON once: the text OpenSearch is sent, and the text of its query alone
// (the body without its page, `from` and `size`), which names the query of a cursor (cursor.ts).
// A Solr body carries a few KB of typo forms; writing it once for the key and again in the
// OpenSearch client cost the API tens of microseconds per search.
import { jsonText, withMembers } from './json-text.js';

export interface BodyText {
  /** The whole body, as JSON.stringify writes it with `from` and `size` last. */
  text: string;
  /** The body without `from` and `size`. */
  query: string;
}

export function bodyText(body: Record<string, unknown>): BodyText {
  const { from, size, ...rest } = body;
  const query = jsonText<object>(rest);
  // JSON.stringify leaves out a page member that is undefined, as it would in the body itself.
  return { text: withMembers(query, { from, size }), query };
}

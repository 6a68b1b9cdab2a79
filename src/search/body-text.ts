// A search body written as JSON once: the text OpenSearch is sent, and the text of its query alone
// (the body without its page, `from` and `size`), which names the query of a cursor (cursor.ts).
// A Solr body carries a few KB of typo forms; writing it once for the key and again in the
// OpenSearch client cost the API tens of microseconds per search.

export interface BodyText {
  /** The whole body, as JSON.stringify writes it with `from` and `size` first. */
  text: string;
  /** The body without `from` and `size`. */
  query: string;
}

export function bodyText(body: Record<string, unknown>): BodyText {
  const { from, size, ...rest } = body;
  const query = JSON.stringify(rest);
  const page = [...(from === undefined ? [] : [`"from":${JSON.stringify(from)}`]), ...(size === undefined ? [] : [`"size":${JSON.stringify(size)}`])].join(',');
  if (!page) return { text: query, query };
  return { text: query === '{}' ? `{${page}}` : `{${page},${query.slice(1)}`, query };
}

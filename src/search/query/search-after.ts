// The one clause cursor paging adds to a sorted search body (src/search/cursor.ts): the same
// query, sort and size, continued after the last hit of the previous page. Without `from`, so
// OpenSearch's result window (mappings/listings.json, max_result_window) no longer limits it.
// Every sort these builders make ends with the listing id, so the sort values name one position.
export function continuedAfter<B extends { from?: number }>(body: B, after: number[]): Omit<B, 'from'> & { search_after: number[] } {
  const { from: _from, ...rest } = body;
  return { ...rest, search_after: after };
}

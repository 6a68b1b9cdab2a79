import { Client } from '@opensearch-project/opensearch';

/**
 * The node URLs of OPENSEARCH_URL: one node, or several nodes of one cluster separated by commas
 * (config.ts validates the form).
 */
export const openSearchNodes = (url: string): string[] => url.split(',');

export function createOpenSearchClient(url: string): Client {
  // Short timeouts: a search that cannot answer quickly should fail into a 503, not hang a socket.
  // With several nodes the client takes them in turn, and a request whose node refuses the
  // connection or answers 502-504 is retried once on another node (maxRetries), which marks the
  // first dead until a ping finds it back: a lost node costs no request.
  return new Client({ nodes: openSearchNodes(url), requestTimeout: 10_000, maxRetries: 1 });
}

export type { Client as OpenSearchClient };

/** What the client answers a request with: its parsed body, and the request it sent. */
interface ClientAnswer<B> {
  body: B;
  meta: { request: { params: { body?: unknown; bulkBody?: unknown } } };
}

/**
 * The body of an answer, detached from the answer, with the request's body let go too. The
 * client (3.9.0, `Transport.request`) gives each answer a `warnings` getter of its own, and a
 * closure over the request's whole scope (answer, body sent, socket request) stays reachable
 * through it, likely by the hidden class V8 builds for each such getter, until the next full
 * collection, and every young collection until then copies it. Searches of 40 KB answers through
 * the bare client kept 7.6 MB alive at each young collection, whose pauses took 9–10 ms; detached,
 * 0.4 MB and 2.6 ms. In the API, whose other work shares the heap, it saves less: young
 * collections took 2–8 ms less per 1 000 searches (bench/RESULTS.md, "The client's answers
 * outlived their requests"). Searches go around that method altogether (pool-search.ts); the
 * answers still read through the client, the indexer's `_bulk` ones, take their body here.
 */
export function takeBody<B>(answer: ClientAnswer<B>): B {
  const { body } = answer;
  (answer as { body: B | null }).body = null;
  const sent = answer.meta.request.params;
  sent.body = undefined;
  sent.bulkBody = undefined; // a _bulk's lines, which the client also keeps as `body`
  return body;
}

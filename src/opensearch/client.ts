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

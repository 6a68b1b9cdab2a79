import { Client } from '@opensearch-project/opensearch';

export function createOpenSearchClient(url: string): Client {
  // Short timeouts: a search that cannot answer quickly should fail into a 503, not hang a socket.
  return new Client({ node: url, requestTimeout: 10_000, maxRetries: 1 });
}

export type { Client as OpenSearchClient };

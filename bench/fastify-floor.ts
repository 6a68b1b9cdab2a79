// The least a service on our fixed stack can do for a search: Fastify 5 receives the search body,
// @opensearch-project/opensearch sends it and parses the answer, Fastify serialises it back. No
// authentication, limits, validation, hooks or reshaping. It sends the search as the API does,
// through the client's connection pool (src/opensearch/pool-request.ts), the least the client can
// do: `client.search` would cost more and flatter the API beside it.
// bench/request-path.ts measures its CPU per request beside the bare Node hop (bench/node-hop.ts)
// and the API: what the framework and the client cost on their own, before any of the API's work.
import Fastify from 'fastify';
import { createOpenSearchClient, openSearchNodes } from '../src/opensearch/client.js';
import { searchThroughPool } from '../src/opensearch/pool-request.js';

// bench/request-path.ts hands it one node (bench/service.ts OPENSEARCH), as it does the hop.
const client = createOpenSearchClient(openSearchNodes(process.env.OPENSEARCH_URL ?? 'http://127.0.0.1:9200')[0]!);
const app = Fastify();

app.post<{ Params: { index: string }; Body: Record<string, unknown> }>('/:index/_search', async (request) => {
  return searchThroughPool(client, { index: request.params.index, body: JSON.stringify(request.body) });
});

await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
process.send?.('listening');

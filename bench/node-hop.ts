// The cheapest service a Node process can put in front of OpenSearch: each request is forwarded
// as it is (path and body) over keep-alive connections and the answer piped back. No
// authentication, validation, rate limit or reshaping. bench/run.ts measures it beside the API
// and raw OpenSearch: the ceiling of any Node HTTP hop on this machine.
import http from 'node:http';
import { openSearchNodes } from '../src/opensearch/client.js';

// bench/run.ts hands it one node (bench/service.ts OPENSEARCH); a list would mean its first node.
const target = new URL(openSearchNodes(process.env.OPENSEARCH_URL ?? 'http://127.0.0.1:9200')[0]!);
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

http
  .createServer((request, response) => {
    const upstream = http.request(
      {
        host: target.hostname,
        port: target.port,
        path: request.url,
        method: request.method,
        agent,
        headers: { 'content-type': 'application/json' },
      },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, { 'content-type': 'application/json' });
        answer.pipe(response);
      },
    );
    upstream.on('error', () => response.writeHead(502).end());
    request.pipe(upstream);
  })
  .listen(Number(process.env.PORT), '127.0.0.1', () => process.send?.('listening'));

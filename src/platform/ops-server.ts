// The operations surface of both processes, on a port of its own that stays off public networks
// (the API's METRICS_PORT, the indexer's INDEXER_PORT): liveness, readiness and the Prometheus
// metrics. Metrics tell how busy the service is and which routes fail, and reading them queries
// PostgreSQL and Redis, so the API's public port does not serve them (docs/security.md). Where
// these ports cannot be kept private, METRICS_TOKEN guards /metrics as well.
import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Registry } from 'prom-client';

export interface OpsServerOptions {
  registry: Registry;
  /** METRICS_TOKEN: when not empty, /metrics needs `Authorization: Bearer <token>`. */
  token: string;
  /** The services that do not answer (src/platform/health.ts createReadiness). */
  readiness: () => Promise<string[]>;
}

const digest = (text: string) => createHash('sha256').update(text).digest();

const sendJson = (res: ServerResponse, status: number, body: object) => {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body));
};
const error = (type: string, message: string, details: string[] = []) => ({ type, message, details });

export function createOpsServer({ registry, token, readiness }: OpsServerOptions): Server {
  // Compared as digests of equal length, in constant time: the answer tells nothing of how much of a guess was right.
  const expected = token ? digest(`Bearer ${token}`) : undefined;
  const authorised = (req: IncomingMessage) => !expected || timingSafeEqual(digest(req.headers.authorization ?? ''), expected);

  async function answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method !== 'GET' && req.method !== 'HEAD') return sendJson(res, 404, error('not_found', `no route ${req.method} ${path}`));
    switch (path) {
      case '/healthz':
        return sendJson(res, 200, { status: 'ok' });
      case '/readyz': {
        const failing = await readiness();
        if (failing.length === 0) return sendJson(res, 200, { status: 'ready' });
        return sendJson(res, 503, error('unavailable', `not ready: ${failing.join(', ')} unreachable`, failing));
      }
      case '/metrics': {
        if (!authorised(req)) {
          res.setHeader('www-authenticate', 'Bearer');
          return sendJson(res, 401, error('unauthorized', 'the metrics token is required: Authorization: Bearer <METRICS_TOKEN>'));
        }
        const text = await registry.metrics();
        res.writeHead(200, { 'content-type': registry.contentType, 'cache-control': 'no-store' });
        res.end(text);
        return;
      }
      default:
        return sendJson(res, 404, error('not_found', `no route GET ${path}`));
    }
  }

  return createServer((req, res) => {
    answer(req, res).catch(() => {
      if (!res.headersSent) sendJson(res, 500, error('internal', 'internal error'));
      else res.destroy();
    });
  });
}

/** Starts `server` on `port` and `host`; resolves once it listens, rejects when it cannot (port taken). */
export function listenOps(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

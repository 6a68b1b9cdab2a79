import type { FastifyInstance } from 'fastify';
import { dependencyOf } from '../platform/dependency-errors.js';
import type { Metrics } from '../platform/metrics.js';

/**
 * Counts every request of the app. The metrics are read on the operations port
 * (src/platform/ops-server.ts, METRICS_PORT), not here: the public port has no /metrics.
 */
export function installMetrics(app: FastifyInstance, metrics: Metrics): void {
  // A callback hook, not an async one: it runs on every request and never waits.
  app.addHook('onResponse', (request, reply, done) => {
    metrics.httpDuration.observe({ method: request.method, route: request.routeOptions.url ?? 'unknown', status_code: String(reply.statusCode) }, reply.elapsedTime / 1000);
    done();
  });
  app.addHook('onError', async (_request, _reply, err) => {
    const dependency = dependencyOf(err);
    if (dependency) metrics.dependencyErrors.inc({ dependency });
  });
}

import type { FastifyInstance } from 'fastify';
import { dependencyOf } from '../platform/dependency-errors.js';
import type { Metrics } from '../platform/metrics.js';
import { PUBLIC_ROUTE } from './openapi.js';

export function installMetrics(app: FastifyInstance, metrics: Metrics): void {
  // A callback hook, not an async one: it runs on every request and never waits.
  app.addHook('onResponse', (request, reply, done) => {
    metrics.httpDuration.observe(
      { method: request.method, route: request.routeOptions.url ?? 'unknown', status_code: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
    done();
  });
  app.addHook('onError', async (_request, _reply, err) => {
    const dependency = dependencyOf(err);
    if (dependency) metrics.dependencyErrors.inc({ dependency });
  });
  app.get('/metrics', { schema: { ...PUBLIC_ROUTE, summary: 'Prometheus metrics', tags: ['operations'] } }, async (_request, reply) => {
    return reply.type(metrics.registry.contentType).send(await metrics.registry.metrics());
  });
}

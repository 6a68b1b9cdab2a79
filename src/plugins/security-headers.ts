// Security headers on every answer (helmet's defaults: nosniff, frame options, HSTS, a content
// security policy, …). helmet's middleware is built once here: @fastify/helmet builds it anew on
// every request, parsing its policy each time, which a CPU profile of GET by id showed as 3-4 % of
// the API's busy time (bench/profile.ts). Swagger UI sets its own policy on its pages, over this one.
import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';

export function installSecurityHeaders(app: FastifyInstance): void {
  const setHeaders = helmet();
  app.addHook('onRequest', (request, reply, done) => {
    setHeaders(request.raw, reply.raw, () => done());
  });
}

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { PUBLIC_ROUTE } from '../plugins/openapi.js';
import { ErrorSchema } from '../schemas/common.js';

/** `readiness`: the names of the services that do not answer, checked at most so often (src/platform/health.ts). */
export const healthRoutes: FastifyPluginAsyncTypebox<{ readiness: () => Promise<string[]> }> = async (app, { readiness }) => {
  app.get(
    '/healthz',
    {
      schema: { ...PUBLIC_ROUTE, summary: 'Liveness: the process answers', tags: ['operations'], response: { 200: Type.Object({ status: Type.Literal('ok') }) } },
    },
    async () => ({ status: 'ok' as const }),
  );

  app.get(
    '/readyz',
    {
      schema: {
        ...PUBLIC_ROUTE,
        summary: 'Readiness: PostgreSQL, Redis and OpenSearch answer',
        tags: ['operations'],
        response: { 200: Type.Object({ status: Type.Literal('ready') }), 503: Type.Ref(ErrorSchema) },
      },
    },
    async (_request, reply) => {
      const failing = await readiness();
      if (failing.length === 0) return { status: 'ready' as const };
      return reply.status(503).send({ type: 'unavailable', message: `not ready: ${failing.join(', ')} unreachable`, details: failing });
    },
  );
};

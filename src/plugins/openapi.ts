// OpenAPI 3.1 generated from the TypeBox route schemas, served at /openapi.json, with Swagger UI
// at /docs. Shared schemas keep their $id as their component name.
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';

export async function installOpenApi(app: FastifyInstance, { version }: { version: string }): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Business listings directory API',
        version,
        description:
          'Search, create, update and delete business listings per country; claims, suppression, offers, ' +
          'images, reviews, id mappings and webhooks. Errors are `{type, message, details}`. The Solr mode of ' +
          '`GET /{country}/listings` (`solr=true`) is experimental.',
      },
      components: { securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', description: 'API key from `npm run cli -- partner create`' } } },
      security: [{ bearerAuth: [] }],
      tags: ['listings', 'search', 'categories', 'claims', 'offers', 'mappings', 'images', 'reviews', 'webhooks', 'changes', 'analytics', 'operations'].map((name) => ({ name })),
    },
    refResolver: { buildLocalReference: (json, _base, _fragment, i) => String(json.$id ?? `def-${i}`) },
  });
  await app.register(swaggerUi, { routePrefix: '/docs', staticCSP: true });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}

/** Public routes carry no key: they override the global security requirement with this. */
export const PUBLIC_ROUTE = { security: [] as Record<string, string[]>[] };

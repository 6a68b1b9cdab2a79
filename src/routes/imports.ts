// Bulk imports (docs/contract.md §19): submit an NDJSON body as a job, follow it, read its
// per-line results, cancel it. The body reaches the service as the raw stream, never buffered.
import type { Readable } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ImportsService } from '../imports/imports-service.js';
import { existingId } from '../http/ids.js';
import { AppError } from '../platform/errors.js';
import { CountryParamsSchema, errorResponses, NoContent } from '../schemas/common.js';
import { IMPORT_MEDIA_TYPE, ImportJobSchema, ImportListSchema, ImportParamsSchema, ImportQuerySchema, ImportResultsBodySchema } from '../schemas/imports.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** How long this route's body may take to arrive once it holds a large-body slot (src/plugins/large-body-gate.ts). */
    bodyTimeoutMs?: number;
  }
}

interface Deps {
  imports: ImportsService;
  /** The whole request must arrive within HTTP_REQUEST_TIMEOUT_MS anyway; an import body gets all of it. */
  bodyTimeoutMs: number;
}

const isStream = (body: unknown): body is Readable => typeof (body as Readable | undefined)?.pipe === 'function';

export const importRoutes: FastifyPluginAsyncTypebox<Deps> = async (app, { imports, bodyTimeoutMs }) => {
  // The body is handed over as the stream it arrives as: the service stores it line by line, so
  // Fastify must neither buffer it nor apply BODY_LIMIT_BYTES (IMPORT_MAX_BYTES is the limit).
  app.addContentTypeParser(IMPORT_MEDIA_TYPE, (_request, payload, done) => done(null, payload));

  app.post(
    '/imports',
    {
      config: { bodyTimeoutMs },
      schema: {
        summary: `Submit a bulk import: ${IMPORT_MEDIA_TYPE}, one listing a line with its source_id (Content-Encoding: gzip accepted); answers 202 once the body is stored; honours Idempotency-Key`,
        tags: ['imports'],
        params: CountryParamsSchema,
        querystring: ImportQuerySchema,
        consumes: [IMPORT_MEDIA_TYPE],
        response: { 202: ImportJobSchema, ...errorResponses(409, 413, 415) },
      },
    },
    async (request, reply) => {
      if (!isStream(request.body)) throw new AppError('unsupported_media_type', `send the import as ${IMPORT_MEDIA_TYPE}`);
      const idempotencyKey = request.headers['idempotency-key'];
      try {
        const { job, replayed } = await imports.submit(request.caller, request.country, request.query.mode ?? 'upsert', {
          body: request.body,
          contentEncoding: request.headers['content-encoding']?.trim().toLowerCase(),
          idempotencyKey: Array.isArray(idempotencyKey) ? idempotencyKey[0] : idempotencyKey,
        });
        if (replayed) reply.header('idempotent-replayed', 'true');
        return reply.status(202).header('location', `/${request.country}/imports/${job.id}`).send(job);
      } catch (err) {
        // Refused before the whole body was read: the rest is not wanted, so the connection ends.
        if (!request.body.readableEnded) reply.header('connection', 'close');
        throw err;
      }
    },
  );

  app.get(
    '/imports',
    {
      schema: {
        summary: "The caller's imports in this country (an admin's: everyone's), newest first, at most 100",
        tags: ['imports'],
        params: CountryParamsSchema,
        response: { 200: ImportListSchema, ...errorResponses() },
      },
    },
    async (request) => ({ imports: await imports.list(request.caller, request.country) }),
  );

  app.get(
    '/imports/:id',
    {
      schema: {
        summary: "An import's status and counts",
        tags: ['imports'],
        params: ImportParamsSchema,
        response: { 200: ImportJobSchema, ...errorResponses() },
      },
    },
    async (request) => imports.get(request.caller, request.country, existingId(request.params.id, 'import')),
  );

  app.get(
    '/imports/:id/results',
    {
      // Streams for as long as the client reads: no read timeout (src/plugins/read-timeout.ts).
      config: { streamed: true },
      exposeHeadRoute: false,
      schema: {
        summary: 'The outcome of every processed line as NDJSON, in line order',
        tags: ['imports'],
        params: ImportParamsSchema,
        response: { 200: { content: { [IMPORT_MEDIA_TYPE]: { schema: ImportResultsBodySchema } } }, ...errorResponses() },
      },
    },
    async (request, reply) => {
      const body = await imports.results(request.caller, request.country, existingId(request.params.id, 'import'));
      return reply.type(IMPORT_MEDIA_TYPE).send(body);
    },
  );

  app.delete(
    '/imports/:id',
    {
      schema: {
        summary: 'Cancel a queued or running import; lines already applied stay applied (409 once it has ended)',
        tags: ['imports'],
        params: ImportParamsSchema,
        response: { 204: NoContent, ...errorResponses(409) },
      },
    },
    async (request, reply) => {
      await imports.cancel(request.caller, request.country, existingId(request.params.id, 'import'));
      return reply.status(204).send(null);
    },
  );
};

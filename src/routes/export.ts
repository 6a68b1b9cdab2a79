// The consistent export (docs/contract.md §16): NDJSON streamed from one database snapshot.
import type { Socket } from 'node:net';
import { pipeline, type Readable } from 'node:stream';
import { createGzip } from 'node:zlib';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { acceptsGzip } from '../http/accept-encoding.js';
import type { ExportService } from '../listings/export-service.js';
import { createSlots } from '../plugins/large-body-gate.js';
import { ExportBodySchema, ExportQuerySchema } from '../schemas/changes.js';
import { CountryParamsSchema, errorResponses } from '../schemas/common.js';

interface Deps {
  exports: ExportService;
  /** Exports streamed at once (EXPORT_CONCURRENCY); each holds a pooled database connection. */
  concurrency: number;
}

export const exportRoutes: FastifyPluginAsyncTypebox<Deps> = async (app, { exports, concurrency }) => {
  // More exports than this wait for a slot, holding nothing but their socket: the pool's other
  // connections stay for the write path and the other reads.
  const slots = createSlots(concurrency);

  app.get('/listings/export', {
    // Streams for as long as the client takes to read it: no read timeout (src/plugins/read-timeout.ts).
    // A client that stops reading is cut off by the socket's idle timeout (HTTP_IDLE_TIMEOUT_MS).
    config: { streamed: true },
    // HEAD would read the whole export only to throw it away.
    exposeHeadRoute: false,
    schema: {
      summary: 'Export listings as NDJSON from one consistent snapshot; continue with the change feed from `changes_after`',
      tags: ['listings', 'changes'],
      params: CountryParamsSchema,
      querystring: ExportQuerySchema,
      response: {
        200: { description: 'NDJSON, gzip-compressed when Accept-Encoding allows it', content: { 'application/x-ndjson': { schema: ExportBodySchema } } },
        ...errorResponses(),
      },
    },
  }, async (request, reply) => {
    // A client waiting for a slot sends and receives nothing: the idle timeout must not cut it off.
    // (An injected request, as in tests, has a socket without timeouts.)
    const socket = request.raw.socket as Partial<Socket> | undefined;
    const idleMs = socket?.timeout;
    socket?.setTimeout?.(0);
    await slots.acquire();
    socket?.setTimeout?.(idleMs ?? 0);
    let held = true;
    let body: Readable | undefined;
    // However the answer ends (also when it never starts to stream), the slot is given back and
    // the body destroyed, which returns its database connection to the pool. Idempotent.
    const finish = () => {
      if (held) slots.release();
      held = false;
      body?.destroy();
    };
    reply.raw.once('close', finish);
    if (request.raw.destroyed) return finish(); // the client left while waiting: nobody to answer
    try {
      body = await exports.open(request.caller, request.country, request.query.scope ?? 'claimed');
    } catch (err) {
      finish();
      throw err;
    }
    if (request.raw.destroyed) return finish(); // the client left while the snapshot opened
    reply.type('application/x-ndjson').header('vary', 'accept-encoding');
    if (!acceptsGzip(request.headers['accept-encoding'])) return reply.send(body);
    const gzip = pipeline(body, createGzip(), () => {});
    return reply.header('content-encoding', 'gzip').send(gzip);
  });
};

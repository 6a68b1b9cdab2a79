// The consistent export (docs/contract.md §16): NDJSON streamed from one database snapshot.
import type { Socket } from 'node:net';
import { pipeline, type Readable } from 'node:stream';
import { createGzip } from 'node:zlib';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { acceptsGzip } from '../http/accept-encoding.js';
import type { ExportService } from '../listings/export-service.js';
import { watchWrites, type WriteDeadlines } from '../http/write-deadlines.js';
import { rateLimited, unavailable } from '../platform/errors.js';
import { createKeyedSlots } from '../platform/keyed-slots.js';
import { ExportBodySchema, ExportQuerySchema } from '../schemas/changes.js';
import { CountryParamsSchema, errorResponses } from '../schemas/common.js';

interface Deps {
  exports: ExportService;
  limits: WriteDeadlines & {
    /** Exports streamed at once (EXPORT_CONCURRENCY); each holds a pooled database connection. */
    concurrency: number;
    /** How long an export may wait for a slot (EXPORT_WAIT_MS). */
    waitMs: number;
  };
}

/** A key's second export while its first runs: when to ask again. The first may run for long. */
const KEY_BUSY_RETRY_S = 10;

export const exportRoutes: FastifyPluginAsyncTypebox<Deps> = async (app, { exports, limits }) => {
  // More exports than this wait for a slot, holding nothing but their socket: the pool's other
  // connections stay for the write path and the other reads. One slot per key, so one partner's
  // exports cannot take them all (src/platform/keyed-slots.ts).
  const slots = createKeyedSlots({ size: limits.concurrency, waitMs: limits.waitMs });

  app.get(
    '/listings/export',
    {
      // Streams for as long as the client takes to read it: no read timeout (src/plugins/read-timeout.ts).
      // A client that stops reading is cut off after EXPORT_STALL_MS, any export after EXPORT_MAX_MS.
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
    },
    async (request, reply) => {
      // A client waiting for a slot sends and receives nothing: the idle timeout must not cut it off.
      // (An injected request, as in tests, has a socket without timeouts.)
      const socket = request.raw.socket as Partial<Socket> | undefined;
      const idleMs = socket?.timeout;
      socket?.setTimeout?.(0);
      const waiting = new AbortController();
      const leave = () => waiting.abort();
      reply.raw.once('close', leave);
      const slot = await slots.acquire(request.caller.keyHash, waiting.signal);
      reply.raw.off('close', leave);
      socket?.setTimeout?.(idleMs ?? 0);
      if (!slot.ok) {
        // Refused before any snapshot is taken.
        if (slot.reason === 'key_busy') throw rateLimited('this key is already exporting; one export per key at a time', KEY_BUSY_RETRY_S);
        if (slot.reason === 'timeout') throw unavailable(`no export slot came free within ${limits.waitMs} ms`, limits.waitMs / 1000);
        return; // the client left while waiting: nobody to answer
      }
      let body: Readable | undefined;
      // However the answer ends (also when it never starts to stream), the slot is given back and
      // the body destroyed, which rolls its snapshot back and returns its database connection to
      // the pool. Idempotent.
      const finish = () => {
        slot.release();
        body?.destroy();
      };
      reply.raw.once('close', finish);
      if (request.raw.destroyed) return finish(); // the client left just as the slot came
      try {
        body = await exports.open(request.caller, request.country, request.query.scope ?? 'claimed');
      } catch (err) {
        finish();
        throw err;
      }
      if (request.raw.destroyed) return finish(); // the client left while the snapshot opened
      // A client that takes nothing for EXPORT_STALL_MS, or an export past EXPORT_MAX_MS, is cut
      // off: the connection is destroyed mid-body, so the body lacks its end line and the partner
      // exports again (docs/contract.md §16); the 'close' that follows runs `finish`.
      watchWrites(reply.raw, limits, (why) => {
        request.log.warn({ why, stallMs: limits.stallMs, maxMs: limits.maxMs }, 'export cut off');
        reply.raw.destroy();
      });
      reply.type('application/x-ndjson').header('vary', 'accept-encoding');
      if (!acceptsGzip(request.headers['accept-encoding'])) return reply.send(body);
      const gzip = pipeline(body, createGzip(), () => {});
      return reply.header('content-encoding', 'gzip').send(gzip);
    },
  );
};

// Safe retries (CONTRACT section 13): a POST with an Idempotency-Key is performed once per partner
// and key; a retry with the same body gets the first response again, with another body a 409.
// Keys live in PostgreSQL, so every API instance sees them; they are forgotten after 24 h.
import { createHash } from 'node:crypto';
import { and, eq, lt } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../db/client.js';
import { IDEMPOTENCY_TTL_MS, idempotencyKeys } from '../db/schema.js';
import { conflict, validationError } from '../errors.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Routes that honour the Idempotency-Key header. */
    idempotent?: boolean;
  }
  interface FastifyRequest {
    idempotencyKey?: { partnerId: number; key: string };
  }
}

const POLL_MS = 50;

const requestHash = (request: FastifyRequest) =>
  createHash('sha256').update(`${request.method} ${request.url}\n${JSON.stringify(request.body ?? null)}`).digest('hex');

export function installIdempotency(app: FastifyInstance, { db, waitMs = 10_000 }: { db: Db; waitMs?: number }): void {
  app.decorateRequest('idempotencyKey', undefined);

  app.addHook('preHandler', async (request: FastifyRequest, reply: FastifyReply) => {
    const header = request.headers['idempotency-key'];
    if (!request.routeOptions.config.idempotent || header === undefined) return;
    if (typeof header !== 'string' || header.length < 1 || header.length > 200) {
      throw validationError(['Idempotency-Key: must be 1–200 characters']);
    }
    const id = { partnerId: request.caller.partnerId, key: header };
    const hash = requestHash(request);
    const same = and(eq(idempotencyKeys.partnerId, id.partnerId), eq(idempotencyKeys.key, id.key));
    await db.delete(idempotencyKeys).where(and(same, lt(idempotencyKeys.createdAt, new Date(Date.now() - IDEMPOTENCY_TTL_MS))));
    const claimed = await db.insert(idempotencyKeys).values({ ...id, requestHash: hash }).onConflictDoNothing().returning({ key: idempotencyKeys.key });
    if (claimed.length) {
      request.idempotencyKey = id; // first request: perform it, remember the answer in onSend
      return;
    }
    const deadline = Date.now() + waitMs;
    for (;;) {
      const [row] = await db.select().from(idempotencyKeys).where(same);
      if (!row) throw conflict('the first request with this Idempotency-Key failed; retry it');
      if (row.requestHash !== hash) throw conflict('Idempotency-Key was already used with another request', ['Idempotency-Key: reused with a different body']);
      if (row.statusCode !== null) {
        reply.header('idempotent-replayed', 'true').status(row.statusCode).send(row.response);
        return reply;
      }
      // The first request is still running (a concurrent retry): wait for its answer.
      if (Date.now() > deadline) throw conflict('a request with this Idempotency-Key is still in progress; retry later');
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  });

  app.addHook('onSend', async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const id = request.idempotencyKey;
    if (!id) return payload;
    const same = and(eq(idempotencyKeys.partnerId, id.partnerId), eq(idempotencyKeys.key, id.key));
    if (reply.statusCode < 300) {
      await db.update(idempotencyKeys).set({ statusCode: reply.statusCode, response: JSON.parse(String(payload)) }).where(same);
    } else {
      // A failed request is not remembered: the partner may fix it and retry with the same key.
      await db.delete(idempotencyKeys).where(same);
    }
    return payload;
  });
}

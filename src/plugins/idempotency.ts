// Safe retries (docs/contract.md §13): a POST with an Idempotency-Key is performed once per partner
// and key; a retry with the same body gets the first response again, with another body a 409.
// Keys live in PostgreSQL, so every API instance sees them; they are forgotten after 24 h.
// A request holds its key by a lease it renews while it runs (src/idempotency/idempotency-dal.ts):
// when its process dies, a retry takes the key over after IDEMPOTENCY_LEASE_MS instead of
// answering 409 for 24 h. docs/security.md describes what a retry can learn.
import { createHash } from 'node:crypto';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../db/client.js';
import { conflict, validationError } from '../platform/errors.js';
import { createIdempotencyDal, type KeyLease } from '../idempotency/idempotency-dal.js';
import { isLargeBody } from './large-body-gate.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Routes that honour the Idempotency-Key header. */
    idempotent?: boolean;
  }
  interface FastifyRequest {
    idempotencyKey?: HeldKey;
  }
}

interface HeldKey {
  lease: KeyLease;
  stopRenewing(): void;
}

const POLL_MS = 50;
/** A request that never reaches onSend must not hold its key forever; none of ours runs this long. */
const MAX_HOLD_MS = 10 * 60_000;

const requestHash = (request: FastifyRequest) =>
  createHash('sha256')
    .update(`${request.method} ${request.url}\n${JSON.stringify(request.body ?? null)}`)
    .digest('hex');

export function installIdempotency(app: FastifyInstance, { db, leaseMs, largeBodyBytes, waitMs = 10_000 }: { db: Db; leaseMs: number; largeBodyBytes: number; waitMs?: number }): void {
  const keys = createIdempotencyDal(db, leaseMs);
  app.decorateRequest('idempotencyKey', undefined);

  /** Renews the lease well before it runs out, until the answer is stored. */
  function holdWhileRunning(lease: KeyLease, log: FastifyBaseLogger): HeldKey {
    const started = Date.now();
    const timer = setInterval(
      () => {
        if (Date.now() - started > MAX_HOLD_MS) return clearInterval(timer);
        keys.renew(lease).then(
          (held) => {
            if (!held) clearInterval(timer);
          },
          // Logged without the error: the driver's message carries the query parameters.
          () => log.warn('could not renew the Idempotency-Key lease; retrying on the next tick'),
        );
      },
      Math.floor(leaseMs / 3),
    );
    timer.unref();
    return { lease, stopRenewing: () => clearInterval(timer) };
  }

  async function performOnce(request: FastifyRequest, reply: FastifyReply) {
    const header = request.headers['idempotency-key'];
    if (header === undefined) return;
    // A dry run stores nothing (docs/contract.md §20): nothing to perform once, and the key stays
    // free for the write it tried out.
    if ((request.query as { dry_run?: unknown } | undefined)?.dry_run === true) return;
    if (typeof header !== 'string' || header.length < 1 || header.length > 200) {
      throw validationError(['Idempotency-Key: must be 1–200 characters']);
    }
    const id = { partnerId: request.caller.partnerId, key: header };
    const hash = requestHash(request);
    await keys.forgetExpired(id);
    // A large body holds one of the few large-body slots (large-body-gate.ts) while it waits here:
    // it answers at once instead, so duplicate retries of an upload cannot block everyone's.
    const holdsLargeBodySlot = isLargeBody(request, largeBodyBytes);
    const deadline = Date.now() + (holdsLargeBodySlot ? 0 : waitMs);
    for (;;) {
      const found = await keys.acquire(id, hash);
      switch (found.state) {
        case 'held':
          request.idempotencyKey = holdWhileRunning(found.lease, request.log); // perform it, remember the answer in onSend
          return;
        case 'other_request':
          throw conflict('Idempotency-Key was already used with another request', ['Idempotency-Key: reused with a different body']);
        case 'answered':
          reply.header('idempotent-replayed', 'true').status(found.statusCode).send(found.response);
          return reply;
        case 'in_progress':
          // A concurrent retry waits a little for the first answer; a client that gives up here
          // learns the request is still running and when its holder is presumed dead at the latest.
          if (Date.now() > deadline) {
            reply.header('retry-after', String(Math.max(1, Math.ceil(found.leaseLeftMs / 1000))));
            throw conflict('a request with this Idempotency-Key is still in progress; retry after Retry-After seconds', ['state: in_progress']);
          }
          break;
        case 'released':
          break;
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }

  async function rememberAnswer(request: FastifyRequest, reply: FastifyReply, payload: unknown) {
    const held = request.idempotencyKey;
    if (!held) return payload;
    held.stopRenewing();
    try {
      if (reply.statusCode < 300) {
        await keys.complete(held.lease, reply.statusCode, JSON.parse(String(payload)));
      } else {
        // A failed request is not remembered: the partner may fix it and retry with the same key.
        await keys.release(held.lease);
      }
    } catch {
      // The work is committed (or failed) whatever happens to the key: the client gets its answer.
      // The key then stays in progress until its lease runs out (docs/contract.md §13).
      request.log.warn('could not store the answer of an Idempotency-Key');
    }
    return payload;
  }

  // Belt and braces: no renewal outlives its request, whatever happened in onSend.
  async function stopRenewing(request: FastifyRequest) {
    request.idempotencyKey?.stopRenewing();
  }

  // The hooks run on the routes that honour the header only (config.idempotent), so no other
  // request pays for them.
  app.addHook('onRoute', (route) => {
    if (!route.config?.idempotent) return;
    route.preHandler = [route.preHandler ?? []].flat().concat(performOnce);
    route.onSend = [route.onSend ?? []].flat().concat(rememberAnswer);
    route.onResponse = [route.onResponse ?? []].flat().concat(stopRenewing);
  });
}

// Large request bodies are read and parsed a few at a time. The rest wait with their bytes still
// in the kernel's socket buffers, so the memory that bodies take stays bounded however many
// uploads arrive at once, and the API can run with a fixed heap (docs/architecture.md, "Memory").
// The gate sits behind authentication, and a slot is held only until the body's deadline, so
// neither a client without a key nor a slow client can keep partners' uploads waiting. The slots
// are fair between keys (src/platform/keyed-slots.ts): a key sends one large body at a time (a
// second one at once is 429), and a body that finds no free slot within LARGE_BODY_WAIT_MS is 503,
// so one partner's slow uploads cannot queue everyone else's (docs/security.md).
import { finished, PassThrough, type Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError, rateLimited, unavailable } from '../platform/errors.js';
import { createKeyedSlots } from '../platform/keyed-slots.js';

export function isLargeBody(request: FastifyRequest, thresholdBytes: number): boolean {
  const length = Number(request.headers['content-length']);
  // A chunked body has no announced length, so it could be large.
  return Number.isFinite(length) ? length > thresholdBytes : request.headers['transfer-encoding'] !== undefined;
}

export interface LargeBodyGateOptions {
  thresholdBytes: number;
  /** Slots for the whole instance, shared by every scope the gate is installed in. */
  concurrency: number;
  /** How long a body may wait for a slot. */
  waitMs: number;
  /** How long a body holding a slot may take to arrive. */
  timeoutMs: number;
}

/**
 * One gate for the instance; install it in the scope of each group of authenticated routes:
 * preParsing runs after their onRequest authentication, so only a caller with a valid key ever
 * waits for or holds a slot, and `request.caller` names its key.
 */
export function createLargeBodyGate(opts: LargeBodyGateOptions): (scope: FastifyInstance) => void {
  const slots = createKeyedSlots({ size: opts.concurrency, waitMs: opts.waitMs });
  return (scope) =>
    scope.addHook('preParsing', async (request, reply, payload) => {
      if (!isLargeBody(request, opts.thresholdBytes)) return payload;
      // A client that leaves while it waits gives its place up at once.
      const waiting = new AbortController();
      const leave = () => waiting.abort();
      reply.raw.once('close', leave);
      const slot = await slots.acquire(request.caller.keyHash, waiting.signal);
      reply.raw.off('close', leave);
      if (!slot.ok) {
        if (slot.reason === 'key_busy') throw rateLimited('this key is already sending a large body; send large bodies one at a time', 1);
        if (slot.reason === 'timeout') throw unavailable(`no large-body slot came free within ${opts.waitMs} ms`, opts.waitMs / 1000);
        return payload; // the client left while waiting: nobody to answer
      }
      // The slot is held until the answer is sent or the connection dies, whichever comes first.
      const release = slot.release;
      if (request.raw.destroyed) {
        release(); // the client left just as the slot came
        return payload;
      }
      // A route may allow its body more time (a bulk import: src/routes/imports.ts).
      const body = withDeadline(payload, request.routeOptions.config.bodyTimeoutMs ?? opts.timeoutMs, release);
      reply.raw.once('close', () => {
        release();
        body.cancel();
      });
      return body.stream;
    });
}

/**
 * The body as a stream that fails with 408 when it has not fully arrived within `ms`. The client's
 * stream is unpiped, not destroyed: destroying it would close the socket before the answer.
 * `cancel` stops the clock once the answer is out.
 */
function withDeadline(payload: Readable, ms: number, release: () => void) {
  const stream = new PassThrough();
  // The parser stops listening once it has answered (a body over the limit, say); a later error
  // then has nobody to tell and must not become an uncaught one.
  stream.on('error', () => {});
  const timer = setTimeout(() => {
    payload.unpipe(stream);
    payload.pause();
    release();
    stream.destroy(new AppError('request_timeout', `the request body did not arrive within ${ms} ms`));
  }, ms);
  // pipe() does not pass on the client's errors; the parser must still see an aborted upload fail.
  finished(payload, (err) => {
    clearTimeout(timer);
    if (err) stream.destroy(err);
  });
  payload.pipe(stream);
  return { stream, cancel: () => clearTimeout(timer) };
}

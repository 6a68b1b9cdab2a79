// Large request bodies are read and parsed a few at a time. The rest wait with their bytes still
// in the kernel's socket buffers, so the memory that bodies take stays bounded however many
// uploads arrive at once, and the API can run with a fixed heap (docs/architecture.md, "Memory").
// The gate sits behind authentication, and a slot is held only until the body's deadline, so
// neither a client without a key nor a slow client can keep partners' uploads waiting.
import { finished, PassThrough, type Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../platform/errors.js';

/** A counting semaphore: `acquire` resolves when one of `size` slots is free. */
export function createSlots(size: number) {
  let free = size;
  const waiting: (() => void)[] = [];
  return {
    async acquire(): Promise<void> {
      if (free > 0) {
        free--;
        return;
      }
      await new Promise<void>((resolve) => waiting.push(resolve));
    },
    release(): void {
      const next = waiting.shift();
      if (next) next();
      else free++;
    },
    get waiting() {
      return waiting.length;
    },
  };
}

export function isLargeBody(request: FastifyRequest, thresholdBytes: number): boolean {
  const length = Number(request.headers['content-length']);
  // A chunked body has no announced length, so it could be large.
  return Number.isFinite(length) ? length > thresholdBytes : request.headers['transfer-encoding'] !== undefined;
}

/**
 * Register in the scope of authenticated routes: preParsing runs after their onRequest
 * authentication, so only a caller with a valid key ever waits for or holds a slot.
 */
export function installLargeBodyGate(app: FastifyInstance, opts: { thresholdBytes: number; concurrency: number; timeoutMs: number }): void {
  const slots = createSlots(opts.concurrency);
  app.addHook('preParsing', async (request, reply, payload) => {
    if (!isLargeBody(request, opts.thresholdBytes)) return payload;
    await slots.acquire();
    // The slot is held until the answer is sent or the connection dies, whichever comes first.
    let held = true;
    const release = () => {
      if (held) slots.release();
      held = false;
    };
    if (request.raw.destroyed) {
      release(); // the client left while waiting
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

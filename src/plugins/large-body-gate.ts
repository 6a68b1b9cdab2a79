// Large request bodies are read and parsed a few at a time. The rest wait with their bytes still
// in the kernel's socket buffers, so the memory that bodies take stays bounded however many
// uploads arrive at once, and the API can run with a fixed heap (README, "Memory").
import type { FastifyInstance } from 'fastify';

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

export function installLargeBodyGate(app: FastifyInstance, opts: { thresholdBytes: number; concurrency: number }): void {
  const slots = createSlots(opts.concurrency);
  app.addHook('preParsing', async (request, reply, payload) => {
    const length = Number(request.headers['content-length']);
    // A chunked body has no announced length, so it could be large.
    const large = Number.isFinite(length) ? length > opts.thresholdBytes : request.headers['transfer-encoding'] !== undefined;
    if (!large) return payload;
    await slots.acquire();
    // The slot is held until the answer is sent or the connection dies, whichever comes first.
    let held = true;
    const release = () => {
      if (held) slots.release();
      held = false;
    };
    if (request.raw.destroyed) release(); // the client left while waiting
    else reply.raw.once('close', release);
    return payload;
  });
}

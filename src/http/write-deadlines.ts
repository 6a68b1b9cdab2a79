// Deadlines for a long streamed answer (the export): one for a client that stops taking bytes,
// one for the whole answer. The socket's idle timeout does not suffice for the first: a client that
// reads a byte now and then keeps the socket alive while the answer's buffers stay full, and
// whatever the answer holds (a database snapshot, a slot) stays held (docs/security.md).
import type { Writable } from 'node:stream';

export type Expiry = 'stalled' | 'too_long';

export interface WriteDeadlines {
  /** Longest the answer may stay unable to write: its buffer full, no 'drain' since. */
  stallMs: number;
  /** Longest the answer may take in all. */
  maxMs: number;
}

/**
 * Calls `expire` once when `out` has been blocked (a write refused, no 'drain' since) for
 * `stallMs`, or has run for `maxMs`; what to do then is the caller's. Returns the function that
 * stops watching; it also stops when `out` closes.
 */
export function watchWrites(out: Writable, { stallMs, maxMs }: WriteDeadlines, expire: (why: Expiry) => void): () => void {
  let blockedSince: number | undefined;
  const drained = () => {
    blockedSince = undefined;
  };
  // `writableNeedDrain` says a write was refused and no 'drain' came yet. Checked a few times a
  // stall period, so a stall is noticed at most a quarter period late; every 'drain' restarts it.
  const check = setInterval(
    () => {
      if (!out.writableNeedDrain) return drained();
      blockedSince ??= Date.now();
      if (Date.now() - blockedSince >= stallMs) end('stalled');
    },
    Math.max(10, Math.floor(stallMs / 4)),
  );
  const total = setTimeout(() => end('too_long'), maxMs);
  check.unref();
  total.unref();
  out.on('drain', drained);
  let watching = true;
  function stop(): void {
    if (!watching) return;
    watching = false;
    clearInterval(check);
    clearTimeout(total);
    out.off('drain', drained);
    out.off('close', stop);
  }
  function end(why: Expiry): void {
    stop();
    expire(why);
  }
  out.once('close', stop);
  return stop;
}

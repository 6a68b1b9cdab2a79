// Fixed-window request counters shared by every API instance through Redis, without a Redis
// round trip on the request path: each instance counts in its own memory and, every `syncMs`,
// adds what it counted to the shared count in one pipelined call and learns the others' hits from
// the answer (docs/security.md). A limit therefore holds across instances up to
// what the other instances admitted within one sync interval. While Redis fails, each instance
// goes on counting alone: the limit stays on, per instance.
import type { Redis } from 'ioredis';
import { createBoundedCache } from '../platform/bounded-cache.js';

export interface WindowCount {
  /** Requests in the current window, this one included. */
  count: number;
  /** Milliseconds until the window ends. */
  resetMs: number;
}

export interface WindowCounter {
  /** Counts a request now, in memory: no request waits for Redis. */
  hit(key: string): WindowCount;
}

// Adds ARGV[2] hits; the first hit of a window starts its expiry; a key that lost its expiry gets one.
const ADD_HITS = `
local count = redis.call('INCRBY', KEYS[1], ARGV[2])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {count, ttl}`;

/**
 * Counts in this process only: the fallback while Redis fails, and the per-address limit, which
 * guards each instance's own work before authentication and so needs no shared count.
 */
export function createLocalWindowCounter({ windowMs, maxKeys = 50_000 }: { windowMs: number; maxKeys?: number }) {
  const local = createBoundedCache<{ count: number; endsAt: number }>({ max: maxKeys, ttlMs: windowMs });
  return {
    hit(key: string): WindowCount {
      const now = Date.now();
      const window = local.get(key);
      if (window && window.endsAt > now) {
        window.count++;
        return { count: window.count, resetMs: window.endsAt - now };
      }
      local.set(key, { count: 1, endsAt: now + windowMs });
      return { count: 1, resetMs: windowMs };
    },
  };
}

interface SharedWindow {
  endsAt: number;
  /** The shared count as Redis last answered it, this instance's flushed hits included. */
  known: number;
  /** Hits counted here and not yet added to Redis. */
  pending: number;
}

export function createWindowCounter({
  redis,
  prefix,
  windowMs,
  syncMs = 50,
  redisTimeoutMs = 200,
  retryRedisMs = 1000,
  localKeys = 50_000,
}: {
  redis: Pick<Redis, 'pipeline'>;
  prefix: string;
  windowMs: number;
  /** How often the hits counted here are added to the shared count. */
  syncMs?: number;
  /** A Redis that answers slower than this counts as down. */
  redisTimeoutMs?: number;
  /** After a failure, how long requests are counted locally before Redis is tried again. */
  retryRedisMs?: number;
  /** Keys counted at most; an older key's count is dropped first. */
  localKeys?: number;
}): WindowCounter & { flush(): Promise<void> } {
  const windows = createBoundedCache<SharedWindow>({ max: localKeys, ttlMs: windowMs });
  const dirty = new Map<string, SharedWindow>();
  let redisDownUntil = 0;
  let timer: NodeJS.Timeout | undefined;
  let flushing: Promise<void> = Promise.resolve();

  async function addToRedis(batch: [string, SharedWindow, number][]): Promise<void> {
    const pipeline = redis.pipeline();
    for (const [key, , hits] of batch) pipeline.eval(ADD_HITS, 1, prefix + key, windowMs, hits);
    let timeout: NodeJS.Timeout | undefined;
    try {
      const answers = await Promise.race([
        pipeline.exec(),
        new Promise<never>((_, reject) => {
          timeout = setTimeout(() => reject(new Error('rate limit counter: Redis too slow')), redisTimeoutMs);
        }),
      ]);
      const now = Date.now();
      batch.forEach(([, window, hits], i) => {
        const [err, answer] = answers?.[i] ?? [new Error('no answer')];
        if (err) throw err;
        const [count, ttl] = answer as [number, number];
        window.pending -= hits;
        window.known = count;
        // The shared window is the one that counts: it may have started on another instance.
        window.endsAt = now + ttl;
      });
    } finally {
      clearTimeout(timeout);
    }
  }

  function flush(): Promise<void> {
    timer = undefined;
    // The hits are taken when this flush runs, after the one before it has settled: two flushes
    // in flight never send the same hits.
    flushing = flushing.then(async () => {
      if (dirty.size === 0 || Date.now() < redisDownUntil) return;
      const batch = [...dirty].map(([key, window]): [string, SharedWindow, number] => [key, window, window.pending]);
      dirty.clear();
      try {
        await addToRedis(batch);
      } catch {
        // Not added (or not known to be): the hits stay counted here and are offered again with
        // the next ones, unless a newer window of the key is already waiting.
        redisDownUntil = Date.now() + retryRedisMs;
        for (const [key, window] of batch) if (!dirty.has(key)) dirty.set(key, window);
      }
    });
    return flushing;
  }

  return {
    hit(key) {
      const now = Date.now();
      let window = windows.get(key);
      if (!window || window.endsAt <= now) {
        window = { endsAt: now + windowMs, known: 0, pending: 0 };
        windows.set(key, window);
      }
      window.pending++;
      dirty.set(key, window);
      timer ??= setTimeout(flush, syncMs).unref();
      return { count: window.known + window.pending, resetMs: window.endsAt - now };
    },
    /** Adds what was counted here to Redis now (shutdown, tests). */
    flush() {
      clearTimeout(timer);
      return flush();
    },
  };
}

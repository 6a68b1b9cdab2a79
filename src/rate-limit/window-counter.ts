// Fixed-window request counters on the shared Redis, so that a limit holds across API instances.
// While Redis fails, each instance counts in its own memory instead: the limit stays on, per
// instance (README, "Reliability and security").
import type { Redis } from 'ioredis';
import { createBoundedCache } from '../bounded-cache.js';

export interface WindowCount {
  /** Requests in the current window, this one included. */
  count: number;
  /** Milliseconds until the window ends. */
  resetMs: number;
}

export interface WindowCounter {
  hit(key: string): Promise<WindowCount>;
}

// One round trip: the first hit of a window starts its expiry; a key that lost its expiry gets one.
const HIT = `
local count = redis.call('INCR', KEYS[1])
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

export function createWindowCounter({ redis, prefix, windowMs, redisTimeoutMs = 200, retryRedisMs = 1000, localKeys = 50_000 }: {
  redis: Pick<Redis, 'eval'>; prefix: string; windowMs: number;
  /** A Redis that answers slower than this counts as down. */
  redisTimeoutMs?: number;
  /** After a failure, how long requests are counted locally before Redis is tried again. */
  retryRedisMs?: number;
  /** Keys counted locally at most; an older key's count is dropped first. */
  localKeys?: number;
}): WindowCounter {
  const local = createLocalWindowCounter({ windowMs, maxKeys: localKeys });
  let redisDownUntil = 0;

  async function hitRedis(key: string): Promise<WindowCount> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('rate limit counter: Redis too slow')), redisTimeoutMs);
    });
    try {
      const [count, resetMs] = await Promise.race([redis.eval(HIT, 1, prefix + key, windowMs), timeout]) as [number, number];
      return { count, resetMs };
    } finally {
      clearTimeout(timer);
    }
  }

  return {
    async hit(key) {
      if (Date.now() >= redisDownUntil) {
        try {
          return await hitRedis(key);
        } catch {
          redisDownUntil = Date.now() + retryRedisMs;
        }
      }
      return local.hit(key);
    },
  };
}

// The Redis seam is forced to fail here; test/http/rate-limit.test.ts runs the shared count on
// the real Redis and the fallback against a Redis address where nothing listens.
import t from 'tap';
import type { Redis } from 'ioredis';
import { createWindowCounter } from '../../src/rate-limit/window-counter.js';

/** A Redis whose pipelines answer with `exec`; counts how often one was sent. */
function fakeRedis(exec: () => Promise<unknown>) {
  const sent = { pipelines: 0 };
  const redis = {
    pipeline: () => ({
      eval: () => {},
      exec: () => {
        sent.pipelines++;
        return exec();
      },
    }),
  } as unknown as Pick<Redis, 'pipeline'>;
  return { redis, sent };
}

t.test('hits are counted in the process at once, per key and window, without waiting for Redis', async (t) => {
  const { redis } = fakeRedis(() => Promise.reject(new Error('connection refused')));
  // Two seconds: room for the four hits on a busy machine, short enough to wait for its end.
  const counter = createWindowCounter({ redis, prefix: 'p:', windowMs: 2_000 });
  t.same(counter.hit('a').count, 1);
  t.same(counter.hit('a').count, 2);
  t.same(counter.hit('b').count, 1, 'another key counts apart');
  await counter.flush(); // fails: the hits stay counted here
  const third = counter.hit('a');
  t.equal(third.count, 3);
  t.ok(third.resetMs > 0 && third.resetMs <= 2_000, `resets in ${third.resetMs} ms`);
  await new Promise((r) => setTimeout(r, third.resetMs + 20));
  t.equal(counter.hit('a').count, 1, 'a new window starts from one');
});

t.test('a Redis that does not answer counts as down after redisTimeoutMs, and is not tried again at once', async (t) => {
  const { redis, sent } = fakeRedis(() => new Promise(() => {}));
  const counter = createWindowCounter({ redis, prefix: 'p:', windowMs: 10_000, redisTimeoutMs: 50, retryRedisMs: 10_000 });
  t.equal(counter.hit('a').count, 1);
  const started = Date.now();
  await counter.flush();
  t.ok(Date.now() - started < 1000, 'gave up on Redis after its timeout');
  t.equal(counter.hit('a').count, 2, 'still counted here');
  await counter.flush();
  t.equal(sent.pipelines, 1, 'the second flush did not try Redis');
});

t.test('the shared count Redis answers replaces what this instance knew, and the window follows the shared one', async (t) => {
  // Redis says: 10 hits in this window (the other instances' 8 and these 2), 700 ms left.
  const { redis } = fakeRedis(async () => [[null, [10, 700]]]);
  const counter = createWindowCounter({ redis, prefix: 'p:', windowMs: 10_000 });
  counter.hit('a');
  counter.hit('a');
  await counter.flush();
  const next = counter.hit('a');
  t.equal(next.count, 11);
  t.ok(next.resetMs <= 700, `resets with the shared window, in ${next.resetMs} ms`);
});

// The Redis seam is forced to fail here; test/http/rate-limit.test.ts runs the same fallback
// against a Redis address where nothing listens.
import t from 'tap';
import type { Redis } from 'ioredis';
import { createWindowCounter } from '../../src/rate-limit/window-counter.js';

const failing = { eval: async () => { throw new Error('connection refused'); } } as unknown as Pick<Redis, 'eval'>;
const hanging = { eval: () => new Promise(() => {}) } as unknown as Pick<Redis, 'eval'>;

t.test('while Redis fails, hits are counted in the process, per key and window', async (t) => {
  // Two seconds: room for the four hits on a busy machine, short enough to wait for its end.
  const counter = createWindowCounter({ redis: failing, prefix: 'p:', windowMs: 2_000 });
  t.same((await counter.hit('a')).count, 1);
  t.same((await counter.hit('a')).count, 2);
  t.same((await counter.hit('b')).count, 1, 'another key counts apart');
  const third = await counter.hit('a');
  t.equal(third.count, 3);
  t.ok(third.resetMs > 0 && third.resetMs <= 2_000, `resets in ${third.resetMs} ms`);
  await new Promise((r) => setTimeout(r, third.resetMs + 20));
  t.equal((await counter.hit('a')).count, 1, 'a new window starts from one');
});

t.test('a Redis that does not answer counts as down after redisTimeoutMs, and is not waited for again at once', async (t) => {
  let calls = 0;
  const redis = { eval: (...args: unknown[]) => { calls++; return (hanging.eval as (...a: unknown[]) => Promise<unknown>)(...args); } } as unknown as Pick<Redis, 'eval'>;
  const counter = createWindowCounter({ redis, prefix: 'p:', windowMs: 10_000, redisTimeoutMs: 50, retryRedisMs: 10_000 });
  const started = Date.now();
  t.equal((await counter.hit('a')).count, 1);
  t.ok(Date.now() - started < 1000, 'gave up on Redis after its timeout');
  t.equal((await counter.hit('a')).count, 2);
  t.equal(calls, 1, 'the second hit did not try Redis');
});

import t from 'tap';
import { createBoundedCache } from '../../src/platform/bounded-cache.js';

t.test('bounded cache: past its bound the oldest entry goes, the others stay', async (t) => {
  const cache = createBoundedCache<number>({ max: 3, ttlMs: 60_000 });
  cache.set('a', 1);
  cache.set('b', 2);
  cache.set('c', 3);
  cache.set('d', 4);
  t.equal(cache.size, 3);
  t.equal(cache.get('a'), undefined, 'the oldest was dropped');
  t.same([cache.get('b'), cache.get('c'), cache.get('d')], [2, 3, 4]);
  cache.set('b', 22); // refreshed: now the newest
  cache.set('e', 5);
  t.equal(cache.get('c'), undefined);
  t.equal(cache.get('b'), 22);
});

t.test('bounded cache: entries expire after ttlMs, and a zero ttl remembers nothing', async (t) => {
  const cache = createBoundedCache<string>({ max: 10, ttlMs: 30 });
  cache.set('k', 'v');
  t.equal(cache.get('k'), 'v');
  await new Promise((r) => setTimeout(r, 50));
  t.equal(cache.get('k'), undefined);
  t.equal(cache.size, 0, 'an expired entry is removed when read');
  const off = createBoundedCache<string>({ max: 10, ttlMs: 0 });
  off.set('k', 'v');
  t.equal(off.get('k'), undefined);
});

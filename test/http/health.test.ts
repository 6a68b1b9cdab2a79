import t from 'tap';
import { build } from '../helper.js';

const { app, deps } = await build(t, { config: { READINESS_CACHE_MS: 1000 } });

t.test('GET /healthz answers without a key', async (t) => {
  const res = await app.inject({ url: '/healthz' });
  t.equal(res.statusCode, 200);
  t.same(res.json(), { status: 'ok' });
});

t.test('GET /readyz answers 200 when PostgreSQL, Redis and OpenSearch answer', async (t) => {
  const res = await app.inject({ url: '/readyz' });
  t.equal(res.statusCode, 200);
  t.same(res.json(), { status: 'ready' });
});

t.test('every response carries a request id, and a given one is echoed', async (t) => {
  const res = await app.inject({ url: '/healthz', headers: { 'x-request-id': 'abc-123' } });
  t.equal(res.headers['x-request-id'], 'abc-123');
  t.match((await app.inject({ url: '/healthz' })).headers['x-request-id'], /^[0-9a-f-]{36}$/);
});

t.test('a flood of /readyz probes checks PostgreSQL, Redis and OpenSearch once per READINESS_CACHE_MS', async (t) => {
  await new Promise((r) => setTimeout(r, 1100)); // past the answer the probe above left
  const ping = deps.redis.ping.bind(deps.redis);
  let pings = 0;
  deps.redis.ping = (() => {
    pings++;
    return ping();
  }) as typeof deps.redis.ping;
  t.teardown(() => {
    deps.redis.ping = ping as typeof deps.redis.ping;
  });
  const answers = await Promise.all(Array.from({ length: 100 }, () => app.inject({ url: '/readyz' })));
  t.ok(
    answers.every((res) => res.statusCode === 200),
    'every probe is answered',
  );
  t.equal(pings, 1, 'one check for a hundred probes');
  await new Promise((r) => setTimeout(r, 1100));
  t.equal((await app.inject({ url: '/readyz' })).statusCode, 200);
  t.equal(pings, 2, 'the next period checks again');
});

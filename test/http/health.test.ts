import t from 'tap';
import { build } from '../helper.js';

const { app } = await build(t);

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

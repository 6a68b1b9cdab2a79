// HTTP-level hardening: images embeddable from other origins, request ids only in a safe form.
import t from 'tap';
import { readFileSync } from 'node:fs';
import { build, listingInput } from '../helper.js';

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

t.test('/media answers Cross-Origin-Resource-Policy: cross-origin, so partner sites can embed images', async (t) => {
  const { app, partner } = await build(t);
  const { auth } = await partner();
  const { id } = (await app.inject({ method: 'POST', url: '/de/listings', headers: auth, payload: listingInput() })).json();
  const base64 = readFileSync(new URL('../fixtures/images/tiny.png', import.meta.url)).toString('base64');
  const created = await app.inject({ method: 'POST', url: `/de/listings/${id}/images`, headers: auth, payload: { type: 'logo', caption: '', base64 } });
  t.equal(created.statusCode, 201);
  const served = await app.inject({ url: new URL(created.json().url).pathname });
  t.equal(served.statusCode, 200);
  t.equal(served.headers['cross-origin-resource-policy'], 'cross-origin');
  t.equal(served.headers['x-content-type-options'], 'nosniff', 'the other security headers stay');
  t.equal((await app.inject({ url: '/healthz' })).headers['cross-origin-resource-policy'], 'same-origin', 'the API itself stays same-origin');
});

t.test('X-Request-Id is echoed only in a short, safe form; otherwise a new id is generated', async (t) => {
  const { app } = await build(t);
  const echoed = await app.inject({ url: '/healthz', headers: { 'x-request-id': 'trace-me:42.a_b' } });
  t.equal(echoed.headers['x-request-id'], 'trace-me:42.a_b');
  for (const bad of ['x'.repeat(65), 'bell\u0007', 'split\r\nset-cookie: a=b', 'with space', '{"json":1}']) {
    const res = await app.inject({ url: '/healthz', headers: { 'x-request-id': bad } });
    t.equal(res.statusCode, 200);
    t.match(res.headers['x-request-id'], uuid, `${JSON.stringify(bad.slice(0, 20))} replaced`);
  }
});

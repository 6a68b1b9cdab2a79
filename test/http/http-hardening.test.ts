// HTTP-level hardening: images embeddable from other origins, request ids only in a safe form,
// reads cut off after HANDLER_TIMEOUT_MS, slow requests cut off after HTTP_REQUEST_TIMEOUT_MS.
import t from 'tap';
import { readFileSync } from 'node:fs';
import { connect, type AddressInfo } from 'node:net';
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

t.test('a read over HANDLER_TIMEOUT_MS answers 503 unavailable; a write is never cut off', async (t) => {
  const { app } = await build(t, { config: { HANDLER_TIMEOUT_MS: 300 } });
  let writeFinished = false;
  app.get('/test/slow-read', async () => {
    await new Promise((r) => setTimeout(r, 2000));
    return { late: true };
  });
  app.post('/test/slow-write', async () => {
    await new Promise((r) => setTimeout(r, 600));
    writeFinished = true;
    return { done: true };
  });
  const started = Date.now();
  const read = await app.inject({ url: '/test/slow-read' });
  t.equal(read.statusCode, 503);
  t.same(read.json(), { type: 'unavailable', message: 'the request took too long; retry later', details: [] });
  t.ok(Date.now() - started < 1500, `answered after ${Date.now() - started} ms`);
  const write = await app.inject({ method: 'POST', url: '/test/slow-write' });
  t.equal(write.statusCode, 200, 'the write ran to its end');
  t.ok(writeFinished);
});

t.test('a request that arrives too slowly is answered 408 and its connection closed', async (t) => {
  const { app } = await build(t, { config: { HTTP_REQUEST_TIMEOUT_MS: 1000 } });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  const started = Date.now();
  const answer = await new Promise<string>((resolve, reject) => {
    let received = '';
    // Headers never finished: the client stalls after the first line.
    const socket = connect(port, '127.0.0.1', () => socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n'));
    socket.setEncoding('utf8').on('data', (chunk: string) => {
      received += chunk;
    });
    socket.on('close', () => resolve(received)).on('error', () => {});
    setTimeout(() => {
      socket.destroy();
      reject(new Error('no answer within 5 s'));
    }, 5000).unref();
  });
  t.match(answer, /^HTTP\/1\.1 408 /);
  t.equal(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)).type, 'request_timeout');
  t.ok(Date.now() - started < 3500, `after ${Date.now() - started} ms: Node checks its connections every second`);
});

// One delivery attempt against real sockets on 127.0.0.1: it connects to the address the guard
// checked, whatever the URL's name would resolve to, follows no redirect and gives up on time.
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import t, { type Test } from 'tap';
import { isDelivered, sendWebhook } from '../../src/webhooks/send-webhook.js';

async function server(t: Test, handler: (req: IncomingMessage, res: ServerResponse) => void) {
  const seen: { host: string | undefined; url: string | undefined; body: string }[] = [];
  const srv = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen.push({ host: req.headers.host, url: req.url, body: Buffer.concat(chunks).toString('utf8') });
      handler(req, res);
    });
  });
  srv.listen(0, '127.0.0.1');
  await once(srv, 'listening');
  t.teardown(() => {
    srv.closeAllConnections();
    srv.close();
  });
  return { port: (srv.address() as AddressInfo).port, seen };
}

t.test('the attempt connects to the checked address, not to what the name resolves to', async (t) => {
  const { port, seen } = await server(t, (_req, res) => res.writeHead(204).end());
  // `.invalid` never resolves (RFC 6761): only the pinned address can have been used.
  const target = { url: new URL(`http://hooks.example.invalid:${port}/in`), address: '127.0.0.1', family: 4 as const };
  const result = await sendWebhook(target, { 'content-type': 'application/json' }, '{"id":"msg_1"}', 2000);
  t.equal(result.statusCode, 204);
  t.ok(isDelivered(result));
  t.same(seen, [{ host: `hooks.example.invalid:${port}`, url: '/in', body: '{"id":"msg_1"}' }]);
});

t.test('a redirect is not followed and does not count as delivered', async (t) => {
  const { port, seen } = await server(t, (_req, res) => res.writeHead(302, { location: 'http://169.254.169.254/' }).end());
  const result = await sendWebhook({ url: new URL(`http://127.0.0.1:${port}/`), address: '127.0.0.1', family: 4 }, {}, '{}', 2000);
  t.equal(result.statusCode, 302);
  t.notOk(isDelivered(result));
  t.equal(seen.length, 1);
});

t.test('a receiver that does not answer in time gives no status', async (t) => {
  const { port } = await server(t, () => {}); // never answers
  const result = await sendWebhook({ url: new URL(`http://127.0.0.1:${port}/`), address: '127.0.0.1', family: 4 }, {}, '{}', 200);
  t.equal(result.statusCode, null);
  t.match(result.error, /200 ms/);
});

t.test('a closed port gives no status', async (t) => {
  const probe = createServer();
  probe.listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  const result = await sendWebhook({ url: new URL(`http://127.0.0.1:${port}/`), address: '127.0.0.1', family: 4 }, {}, '{}', 2000);
  t.equal(result.statusCode, null);
  t.equal(result.error, 'ECONNREFUSED');
});

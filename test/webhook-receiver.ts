// A real HTTP webhook receiver for the webhook tests (test/integration/webhooks.test.ts,
// test/integration/webhook-target-recheck.test.ts): it records every request it gets.
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Test } from 'tap';

export interface Received {
  headers: Record<string, string>;
  body: string;
  message: { id: string; type: string; country: string | null; listing_id: string | null; version: number | null; at: string; fields: string[] };
  /** When the request's body had arrived (Date.now()), for the tests that measure lag. */
  receivedAt: number;
}

export interface ReceiverOptions {
  /** 0 picks a free port. */
  port?: number;
  /** A name listens on the address it resolves to first, the one the target guard checks first. */
  host?: string;
}

/**
 * A webhook receiver that records every request and answers with the status `respond` chooses
 * for the n-th request (1-based); it closes when the test ends.
 */
export async function receiver(t: Test, respond: (n: number) => number | Promise<number> = () => 200, { port = 0, host = '127.0.0.1' }: ReceiverOptions = {}) {
  const requests: Received[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      const body = Buffer.concat(chunks).toString('utf8');
      requests.push({ headers: req.headers as Record<string, string>, body, message: JSON.parse(body), receivedAt: Date.now() });
      const status = await respond(requests.length);
      if (req.socket.destroyed) return; // the sender gave up waiting
      res.writeHead(status).end();
    });
  });
  server.listen(port, host);
  await once(server, 'listening');
  t.teardown(() => {
    server.closeAllConnections();
    server.close();
  });
  const { port: bound } = server.address() as AddressInfo;
  return { url: `http://${host}:${bound}/hook`, port: bound, requests };
}

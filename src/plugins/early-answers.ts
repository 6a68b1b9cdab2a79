// Requests answered before their body is read (unknown routes, missing or bad keys, rate limits,
// bodies over the limit). A large body, or one of unknown length, is then never read: the answer
// goes out and the connection is closed after it, where Node would otherwise read and discard the
// body to reuse the connection, for as long as a slow client cares to send it. A small body is
// left to Node: it is read quickly, and closing while a client still sends can make it lose the
// answer to a reset.
import type { FastifyInstance } from 'fastify';
import { noRoute } from './error-handler.js';
import { isLargeBody } from './large-body-gate.js';

export function installEarlyAnswers(app: FastifyInstance, { largeBodyBytes }: { largeBodyBytes: number }): void {
  // Fastify's not-found handler would read and parse the body first, as for any route.
  // Callback hooks, not async ones: they run on every request and never wait.
  app.addHook('onRequest', (request, _reply, done) => {
    done(request.is404 ? noRoute(request) : undefined);
  });
  app.addHook('onSend', (request, reply, payload, done) => {
    if (!request.raw.readableEnded && isLargeBody(request, largeBodyBytes)) reply.header('connection', 'close');
    done(null, payload);
  });
}

// Security headers on every answer (helmet's defaults: nosniff, frame options, HSTS, a content
// security policy, …). Their values depend on nothing in the request, so helmet's middleware runs
// once, at start, against a recorder, and each answer gets the recorded headers through Fastify's
// own header store: @fastify/helmet built the middleware anew on every request (a visible share of
// GET by id's CPU under bench/profile.ts), and even built once, its dozen middlewares and Node's
// checks of each raw header cost every search more than one recorded copy. A route may set its own over them
// (Swagger UI its policy, media its resource policy).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';

/** The headers helmet's default middleware sets on an answer, by lower-case name. */
export function helmetHeaders(): Record<string, string> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  let done = false;
  helmet()({} as IncomingMessage, recorder as unknown as ServerResponse, () => {
    done = true;
  });
  // helmet's defaults set their headers synchronously; one that waited could depend on the request.
  if (!done) throw new Error('helmet did not finish synchronously: its headers cannot be computed once');
  return headers;
}

export function installSecurityHeaders(app: FastifyInstance): void {
  const headers = helmetHeaders();
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers);
    done();
  });
}

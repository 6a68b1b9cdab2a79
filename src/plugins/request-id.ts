// A client's X-Request-Id is kept only in a short, safe form: it is echoed in a header and written
// to every log line of the request, where control characters or a megabyte of text do harm.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;

/** Fastify's `genReqId`: the client's id when it is safe, otherwise a new UUID. */
export function requestId(request: IncomingMessage): string {
  const given = request.headers['x-request-id'];
  return typeof given === 'string' && SAFE_REQUEST_ID.test(given) ? given : randomUUID();
}

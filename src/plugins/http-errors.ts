// Errors that Node's HTTP parser and Fastify's router answer before any route, hook or error
// handler runs (a request line or headers over 16 KiB, a slow client, a path parameter over 100
// characters, a malformed percent-encoding). Their default bodies are not our Error object.
import type { Socket } from 'node:net';
import { STATUS_CODES } from 'node:http';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../platform/errors.js';

/** Fastify's `clientErrorHandler`: the socket is all there is, so the answer is written by hand. */
export function answerClientError(err: NodeJS.ErrnoException, socket: Socket): void {
  // A reset connection has nobody to answer.
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const error =
    err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? new AppError('request_timeout', 'the request took too long to arrive')
      : err.code === 'HPE_HEADER_OVERFLOW'
        ? new AppError('headers_too_large', 'the request line and headers exceed 16 KiB')
        : new AppError('validation', 'malformed HTTP request');
  if (socket.writable) {
    const text = JSON.stringify(error.toBody());
    const status = error.statusCode;
    socket.write(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`);
  }
  socket.destroy(err);
}

/**
 * Fastify's `frameworkErrors`: the router's own refusals. This reply does not pass through the
 * error handler (it answers Fastify's default body), so the Error object is sent here; any other
 * code goes on as the error it is.
 */
export function answerFrameworkError(err: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  const appError =
    err.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? new AppError('uri_too_long', 'a path segment is longer than 100 characters')
      : err.code === 'FST_ERR_BAD_URL'
        ? new AppError('validation', 'the URL is not valid percent-encoding')
        : undefined;
  if (!appError) {
    reply.send(err);
    return;
  }
  reply.status(appError.statusCode).send(appError.toBody());
}

// One place that turns every failure into an Error object `{type, message, details}` with the
// status of CONTRACT section 11, including the framework's own errors. 5xx bodies say nothing
// about internals.
import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import { AppError, STATUS_OF, type ErrorType } from '../errors.js';
import { formatValidationErrors } from './validation.js';

const TYPE_OF_STATUS: Record<number, ErrorType> = Object.fromEntries(
  Object.entries(STATUS_OF).map(([type, status]) => [status, type as ErrorType]),
);

/** Errors of unreachable dependencies (PostgreSQL, OpenSearch, Redis) answer 503, not 500. */
function isDependencyDown(err: unknown): boolean {
  const e = err as { code?: string; name?: string; cause?: unknown };
  const codes = ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND', '57P01', '57P03', '53300'];
  if (e?.code && codes.includes(e.code)) return true;
  if (e?.name === 'ConnectionError' || e?.name === 'TimeoutError' || e?.name === 'NoLivingConnectionsError') return true;
  return e?.cause !== undefined && e.cause !== err && isDependencyDown(e.cause);
}

export const noRoute = (request: FastifyRequest) => new AppError('not_found', `no route ${request.method} ${request.url.split('?')[0]}`);

export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, request, reply) => {
    if (err instanceof AppError) {
      return reply.status(err.statusCode).send(err.toBody());
    }
    if (err.validation) {
      const details = formatValidationErrors(err.validation, err.validationContext ?? 'request');
      return reply.status(400).send({ type: 'validation', message: `invalid ${err.validationContext ?? 'request'}`, details });
    }
    if (err.code === 'FST_ERR_HANDLER_TIMEOUT') { // src/plugins/read-timeout.ts
      request.log.warn({ route: request.routeOptions.url }, 'read timed out');
      return reply.status(503).send({ type: 'unavailable', message: 'the request took too long; retry later', details: [] });
    }
    if (isDependencyDown(err)) {
      request.log.error({ err }, 'dependency unavailable');
      return reply.status(503).send({ type: 'unavailable', message: 'a backing service is unavailable; retry later', details: [] });
    }
    const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
    if (status >= 500) {
      request.log.error({ err }, 'unexpected error');
      return reply.status(500).send({ type: 'internal', message: 'internal server error', details: [] });
    }
    // The framework's own client errors: bad JSON, wrong content type, body too large, ...
    return reply.status(status).send({ type: TYPE_OF_STATUS[status] ?? 'validation', message: err.message, details: [] });
  });

  app.setNotFoundHandler((request, reply) => {
    const error = noRoute(request);
    reply.status(error.statusCode).send(error.toBody());
  });
}

// One place that turns every failure into an Error object `{type, message, details}` with the
// status of docs/contract.md §11, including the framework's own errors. 5xx bodies say nothing
// about internals.
import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import { dependencyFailure, errorChain, isOpenSearchError, type DependencyFailure } from '../platform/dependency-errors.js';
import { AppError, STATUS_OF, type ErrorType } from '../platform/errors.js';
import { formatValidationErrors } from '../schemas/body-validation.js';

const TYPE_OF_STATUS: Record<number, ErrorType> = Object.fromEntries(Object.entries(STATUS_OF).map(([type, status]) => [status, type as ErrorType]));

/**
 * Every 503 says when to retry (docs/contract.md §11): soon when a backing service
 * is overloaded or timed out (OpenSearch 429, a lock or statement timeout), later when it is down.
 */
const RETRY_AFTER_SECONDS: Record<DependencyFailure, number> = { busy: 1, down: 5 };

export const noRoute = (request: FastifyRequest) => new AppError('not_found', `no route ${request.method} ${request.url.split('?')[0]}`);

export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, request, reply) => {
    if (err instanceof AppError) {
      if (err.retryAfterSeconds !== undefined) reply.header('retry-after', String(err.retryAfterSeconds));
      else if (err.statusCode === 503) reply.header('retry-after', String(RETRY_AFTER_SECONDS.busy));
      return reply.status(err.statusCode).send(err.toBody());
    }
    if (err.validation) {
      const details = formatValidationErrors(err.validation, err.validationContext ?? 'request');
      return reply.status(400).send({ type: 'validation', message: `invalid ${err.validationContext ?? 'request'}`, details });
    }
    if (err.code === 'FST_ERR_HANDLER_TIMEOUT') {
      // src/plugins/read-timeout.ts
      request.log.warn({ route: request.routeOptions.url }, 'read timed out');
      return reply.status(503).header('retry-after', String(RETRY_AFTER_SECONDS.busy)).send({ type: 'unavailable', message: 'the request took too long; retry later', details: [] });
    }
    const failure = dependencyFailure(err);
    if (failure) {
      request.log.error({ err }, 'dependency unavailable');
      return reply.status(503).header('retry-after', String(RETRY_AFTER_SECONDS[failure])).send({ type: 'unavailable', message: 'a backing service is unavailable; retry later', details: [] });
    }
    // Any other answer of OpenSearch (a 400 to a query we built) is our fault, not the client's:
    // its status and message (index names, query fragments) stay inside.
    const foreign = [...errorChain(err)].some(isOpenSearchError);
    const status = !foreign && err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
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

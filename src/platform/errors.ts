// The error kinds of docs/contract.md §11. Services throw these; one Fastify error handler turns
// them into `{type, message, details}` bodies with the matching status.
export type ErrorType =
  | 'validation'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'gone'
  | 'precondition_failed'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'rate_limited'
  | 'internal'
  | 'unavailable'
  // Rejected by the HTTP layer before any route runs (beyond the contract's table).
  | 'request_timeout'
  | 'uri_too_long'
  | 'headers_too_large';

export const STATUS_OF: Record<ErrorType, number> = {
  validation: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  gone: 410,
  precondition_failed: 412,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  internal: 500,
  unavailable: 503,
  request_timeout: 408,
  uri_too_long: 414,
  headers_too_large: 431,
};

/**
 * What an error adds to its message: one entry per failed check, or, for `precondition_failed`,
 * the listing's current version (docs/contract.md §20).
 */
export type ErrorDetails = string[] | { current_version: number };

export class AppError<D extends ErrorDetails = string[]> extends Error {
  constructor(
    readonly type: ErrorType,
    message: string,
    readonly details: D = [] as unknown as D,
    /** Sent as Retry-After: when a 429 or 503 may be tried again. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }

  get statusCode(): number {
    return STATUS_OF[this.type];
  }

  /** The Error object every non-2xx answer carries (docs/contract.md §11). */
  toBody(): { type: ErrorType; message: string; details: D } {
    return { type: this.type, message: this.message, details: this.details };
  }
}

export const validationError = (details: string[]) => new AppError('validation', `${details.length} check${details.length === 1 ? '' : 's'} failed`, details);
export const notFound = (what: string) => new AppError('not_found', `${what} not found`);
export const forbidden = (message: string) => new AppError('forbidden', message);
export const conflict = (message: string, details: string[] = []) => new AppError('conflict', message, details);

/** A limit of the caller's own was reached: 429, to be retried after `seconds` (at least 1). */
export const rateLimited = (message: string, seconds: number) => {
  const after = Math.max(1, Math.ceil(seconds));
  return new AppError('rate_limited', `${message}; retry after ${after} s`, [], after);
};

/** The service is busy for everyone: 503, to be retried after `seconds` (at least 1). */
export const unavailable = (message: string, seconds: number) => new AppError('unavailable', message, [], Math.max(1, Math.ceil(seconds)));

/** `If-Match` named another version than the listing's current one: nothing was stored (docs/contract.md §20). */
export const preconditionFailed = (currentVersion: number) =>
  new AppError('precondition_failed', `the listing is at version ${currentVersion}, not at a version If-Match names; read it again`, { current_version: currentVersion });

// The error kinds of docs/contract.md §11. Services throw these; one Fastify error handler turns
// them into `{type, message, details}` bodies with the matching status.
export type ErrorType =
  | 'validation' | 'unauthorized' | 'forbidden' | 'not_found' | 'conflict' | 'gone'
  | 'payload_too_large' | 'unsupported_media_type' | 'rate_limited' | 'internal' | 'unavailable'
  // Rejected by the HTTP layer before any route runs (beyond the contract's table).
  | 'request_timeout' | 'uri_too_long' | 'headers_too_large';

export const STATUS_OF: Record<ErrorType, number> = {
  validation: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  gone: 410,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  internal: 500,
  unavailable: 503,
  request_timeout: 408,
  uri_too_long: 414,
  headers_too_large: 431,
};

export class AppError extends Error {
  constructor(
    readonly type: ErrorType,
    message: string,
    readonly details: string[] = [],
  ) {
    super(message);
  }

  get statusCode(): number {
    return STATUS_OF[this.type];
  }

  /** The Error object every non-2xx answer carries (docs/contract.md §11). */
  toBody(): { type: ErrorType; message: string; details: string[] } {
    return { type: this.type, message: this.message, details: this.details };
  }
}

export const validationError = (details: string[]) =>
  new AppError('validation', `${details.length} check${details.length === 1 ? '' : 's'} failed`, details);
export const notFound = (what: string) => new AppError('not_found', `${what} not found`);
export const forbidden = (message: string) => new AppError('forbidden', message);
export const conflict = (message: string, details: string[] = []) => new AppError('conflict', message, details);

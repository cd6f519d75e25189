/**
 * One error type for every layer. Services throw AppError; each wire renders it once:
 * REST as {error, message, code, details?}, GraphQL as extensions.code, SOAP as a fault.
 */

export type ErrorKind =
  | 'bad_request'
  | 'unauthorized'
  | 'authentication_error'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'uri_too_long'
  | 'unprocessable_entity'
  | 'too_many_requests'
  | 'service_unavailable'
  | 'internal_server_error';

const STATUS: Record<ErrorKind, number> = {
  bad_request: 400,
  unauthorized: 401,
  authentication_error: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  uri_too_long: 414,
  unprocessable_entity: 422,
  too_many_requests: 429,
  service_unavailable: 503,
  internal_server_error: 500,
};

export interface AppErrorOptions {
  /** Wire `error` code when it differs from the kind (invalid_credentials, invalid_coupon, ...). */
  error?: string;
  /** Stable domain reason (EMAIL_TAKEN, ORDER_NOT_CANCELABLE); GraphQL extensions.code. */
  reason?: string;
  details?: Record<string, unknown>;
  headers?: Record<string, string>;
}

export class AppError extends Error {
  readonly status: number;
  readonly error: string;
  readonly reason: string;
  readonly details?: Record<string, unknown>;
  readonly headers?: Record<string, string>;

  constructor(
    readonly kind: ErrorKind,
    message: string,
    opts: AppErrorOptions = {},
  ) {
    super(message);
    this.name = 'AppError';
    this.status = STATUS[kind];
    this.error = opts.error ?? kind;
    this.reason = opts.reason ?? (opts.error ?? kind).toUpperCase();
    this.details = opts.details;
    this.headers = opts.headers;
  }
}

export const badRequest = (message: string, opts?: AppErrorOptions) => new AppError('bad_request', message, opts);
export const notFound = (message = 'Not Found', opts?: AppErrorOptions) => new AppError('not_found', message, opts);
export const forbidden = (message = 'Access denied', opts?: AppErrorOptions) => new AppError('forbidden', message, opts);
export const conflict = (message: string, opts?: AppErrorOptions) => new AppError('conflict', message, opts);
export const unprocessable = (message: string, opts?: AppErrorOptions) => new AppError('unprocessable_entity', message, opts);
export const tooManyRequests = () =>
  new AppError('too_many_requests', 'Too many requests. Please try again later.', { reason: 'RATE_LIMITED' });

/** The REST body of an error. */
export function errorBody(err: AppError): Record<string, unknown> {
  const body: Record<string, unknown> = { error: err.error, message: err.message, code: err.status };
  if (err.details) body.details = err.details;
  return body;
}

interface PgLikeError {
  code?: string;
  constraint?: string;
  detail?: string;
}

/**
 * PostgreSQL constraint violations that escape a service become client errors here, in one place.
 * A service that can name the conflict better catches it itself.
 */
export function fromDatabaseError(err: unknown): AppError | undefined {
  const e = findPgError(err);
  if (!e?.code) return undefined;
  switch (e.code) {
    case '23505':
      return conflict('The resource already exists', { reason: 'DUPLICATE', details: { constraint: e.constraint } });
    case '23503':
      return badRequest('A referenced resource does not exist', {
        reason: 'FOREIGN_KEY',
        details: { constraint: e.constraint },
      });
    case '23514':
    case '22003':
    case '22P02':
    case '22007':
    case '22008':
    case '23502':
      return badRequest('A value is out of range or of the wrong form', { reason: 'INVALID_VALUE' });
    case '22021': // NUL or a byte sequence invalid in UTF-8, in text
    case '22P05': // NUL in jsonb
      return badRequest('Text values must not contain NUL characters', { reason: 'INVALID_CHARACTER' });
    case '22001': // longer than its column
    case '54000': // too large for an index entry
      return badRequest('A value is too long', { reason: 'VALUE_TOO_LONG' });
    case '22025': // LIKE pattern ending in an escape character
    case '2201B': // invalid regular expression
      return badRequest('A search value is of the wrong form', { reason: 'INVALID_PATTERN' });
    case '40001':
    case '40P01':
      return conflict('The resource is being changed by another request; retry', { reason: 'CONCURRENT_UPDATE' });
    default:
      return undefined;
  }
}

/** PostgreSQL's error within `err` (the query builder wraps it as the cause), if any. */
export function findPgError(err: unknown): PgLikeError | undefined {
  let cur: unknown = err;
  for (let i = 0; i < 4 && cur && typeof cur === 'object'; i++) {
    const c = cur as PgLikeError & { cause?: unknown };
    if (typeof c.code === 'string' && /^[0-9A-Z]{5}$/.test(c.code)) return c;
    cur = c.cause;
  }
  return undefined;
}

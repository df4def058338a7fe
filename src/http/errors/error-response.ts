import { HttpException, HttpStatus } from '@nestjs/common';
import {
  AppError,
  InternalError,
  MalformedRequestError,
  NotFoundError,
  PayloadTooLargeError,
  RateLimitedError,
  UnauthenticatedError,
  UnsupportedMediaTypeError,
  ValidationFailedError,
  type ErrorDetail,
} from '../../common/errors';

export interface ErrorBody {
  ok: false;
  error: { code: string; message: string; details: ErrorDetail[] };
  [extra: string]: unknown;
}

export interface MappedError {
  status: number;
  body: ErrorBody;
  headers: Record<string, string>;
  /** True when the error was not one we expected (log it). */
  unexpected: boolean;
}

/** The one place errors become HTTP responses (ARCHITECTURE.md "HTTP conventions"). */
export function mapError(error: unknown): MappedError {
  const known = toAppError(error);
  const app = known ?? new InternalError();
  const headers: Record<string, string> = {};
  if (app instanceof UnauthenticatedError) {
    headers['www-authenticate'] =
      app.code === 'missing_token' ? 'Bearer realm="cairn"' : 'Bearer realm="cairn", error="invalid_token"';
  }
  if (app instanceof RateLimitedError) headers['retry-after'] = String(app.retryAfterSeconds);
  return {
    status: app.status,
    body: {
      ok: false,
      error: { code: app.code, message: app.message, details: app.details },
      ...app.bodyExtras,
    },
    headers,
    unexpected: known === null || app instanceof InternalError,
  };
}

/** Framework errors (Nest, Fastify) as typed errors; null for anything unexpected. */
function toAppError(error: unknown): AppError | null {
  if (error instanceof AppError) return error;
  if (error instanceof HttpException) return fromHttpException(error);
  const fastify = error as { code?: unknown; statusCode?: unknown; message?: unknown } | null;
  // Node's IncomingMessage error when the connection ends mid-body (the client left, or the request timeout hit):
  // nobody reads the answer, but it is not an error of ours to log.
  if (fastify?.code === 'ECONNRESET' && fastify.message === 'aborted') {
    return new MalformedRequestError('the connection closed before the request body ended');
  }
  if (fastify && typeof fastify.code === 'string' && fastify.code.startsWith('FST_')) {
    return fromFastify(fastify.code, typeof fastify.statusCode === 'number' ? fastify.statusCode : 500);
  }
  return null;
}

function fromHttpException(error: HttpException): AppError | null {
  switch (error.getStatus()) {
    case HttpStatus.NOT_FOUND:
      return new NotFoundError('no such resource', 'not_found');
    case HttpStatus.PAYLOAD_TOO_LARGE:
      return new PayloadTooLargeError('request body too large');
    case HttpStatus.BAD_REQUEST:
      return new MalformedRequestError(error.message);
    case HttpStatus.UNSUPPORTED_MEDIA_TYPE:
      return new UnsupportedMediaTypeError('unsupported Content-Type: send application/json');
    case HttpStatus.METHOD_NOT_ALLOWED:
      return new NotFoundError('no such resource', 'not_found');
    case HttpStatus.TOO_MANY_REQUESTS:
      // @nestjs/throttler's ThrottlerException carries no delay: the public guard throws RateLimitedError with
      // the exact one; anything else throttled waits one full window (a minute).
      return new RateLimitedError('too many requests; retry later', 60);
    default:
      return null;
  }
}

function fromFastify(code: string, statusCode: number): AppError | null {
  switch (code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new PayloadTooLargeError('request body too large');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new UnsupportedMediaTypeError('unsupported Content-Type: send application/json');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new MalformedRequestError('the JSON body is empty', 'malformed_json');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new MalformedRequestError('Content-Length does not match the body', 'malformed_request');
    default:
      return statusCode >= 400 && statusCode < 500 ? new MalformedRequestError('malformed request') : null;
  }
}

/** Turns class-validator failures into the 422 error, naming every field. */
export function validationError(details: ErrorDetail[]): ValidationFailedError {
  const fields = [...new Set(details.map((d) => d.field).filter(Boolean))];
  return new ValidationFailedError(`invalid request: ${fields.join(', ') || 'body'}`, details);
}

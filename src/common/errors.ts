/**
 * Typed errors. Every failure the service reports is one of these; the HTTP exception filter and the CLI map
 * them to their outputs in one place each (http/error-response.ts, cli/cli-output.ts).
 */

export interface ErrorDetail {
  /** Dotted path of the offending field, when the detail is about one field. */
  field?: string;
  message: string;
  [key: string]: unknown;
}

export abstract class AppError extends Error {
  abstract readonly status: number;
  /** Extra top-level fields of the error body (e.g. `unsafe_flags` of a blocked save). */
  bodyExtras: Record<string, unknown> = {};
  constructor(
    readonly code: string,
    message: string,
    readonly details: ErrorDetail[] = [],
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** 400: the request could not be read at all (malformed JSON, invalid UTF-8, forbidden keys). */
export class MalformedRequestError extends AppError {
  readonly status = 400;
  constructor(message: string, code = 'malformed_request', details: ErrorDetail[] = []) {
    super(code, message, details);
  }
}

/** 401: no usable credentials. */
export class UnauthenticatedError extends AppError {
  readonly status = 401;
  constructor(code: 'missing_token' | 'invalid_token', message: string) {
    super(code, message);
  }
}

/** 403: authenticated, but the connector lacks a capability. */
export class ForbiddenError extends AppError {
  readonly status = 403;
  constructor(message: string, code = 'missing_capability', details: ErrorDetail[] = []) {
    super(code, message, details);
  }
}

/** 404: unknown, or not visible to the caller (never says which). */
export class NotFoundError extends AppError {
  readonly status = 404;
  constructor(message: string, code = 'not_found') {
    super(code, message);
  }
}

/** 409: a conflict with the current state; the code says which. */
export class ConflictError extends AppError {
  readonly status = 409;
  constructor(code: string, message: string, details: ErrorDetail[] = []) {
    super(code, message, details);
  }
}

/** 413: the body exceeds the documented bound. */
export class PayloadTooLargeError extends AppError {
  readonly status = 413;
  constructor(message: string) {
    super('payload_too_large', message);
  }
}

/** 415: the body is not JSON. */
export class UnsupportedMediaTypeError extends AppError {
  readonly status = 415;
  constructor(message: string) {
    super('unsupported_media_type', message);
  }
}

/** 422: well-formed but invalid input; details name the fields. */
export class ValidationFailedError extends AppError {
  readonly status = 422;
  constructor(message: string, details: ErrorDetail[] = [], code = 'validation_failed') {
    super(code, message, details);
  }
}

/** 422: content was blocked as unsafe (secrets, private keys, card numbers, personal data dumps); nothing stored. */
export class UnsafeContentError extends AppError {
  readonly status = 422;
  constructor(
    flags: Array<{
      field: string;
      kind: string;
      rule: string;
      message: string;
      line: number;
      column: number;
    }>,
  ) {
    super(
      'unsafe_content',
      `blocked: ${flags.length} unsafe finding(s); nothing was stored`,
      flags.map((flag) => ({ ...flag })),
    );
    this.bodyExtras = { unsafe_flags: flags };
  }
}

/**
 * 429: too many requests; retry after the given delay (whole seconds, at least 1). The `Retry-After` header and
 * the detail (`retryable: true`, `retry_after_ms`, as in the reply outcome policy) say when.
 */
export class RateLimitedError extends AppError {
  readonly status = 429;
  readonly retryAfterSeconds: number;
  constructor(message: string, retryAfterSeconds: number) {
    const seconds = Math.max(1, Math.ceil(retryAfterSeconds));
    super('rate_limited', message, [
      { message: `retry after ${seconds} s`, retryable: true, retry_after_ms: seconds * 1000 },
    ]);
    this.retryAfterSeconds = seconds;
  }
}

/**
 * 429: a connector token already holds as many open MCP event streams (`GET /mcp`) as one process allows; one
 * must close first. No `Retry-After`: when that happens is the client's doing.
 */
export class TooManyStreamsError extends AppError {
  readonly status = 429;
  constructor(limit: number) {
    super(
      'too_many_streams',
      `this token already holds ${limit} open MCP event streams (GET /mcp), the most allowed; close one first`,
      [{ message: `at most ${limit} open streams per token`, limit }],
    );
  }
}

/** 503: a dependency (store, engine) is not reachable right now. */
export class ServiceUnavailableError extends AppError {
  readonly status = 503;
  constructor(message: string, code = 'service_unavailable') {
    super(code, message);
  }
}

/** 500: a bug or an unexpected state; the message is safe to show, details are not leaked. */
export class InternalError extends AppError {
  readonly status = 500;
  constructor(message = 'internal error', code = 'internal_error', details: ErrorDetail[] = []) {
    super(code, message, details);
  }
}

/** Where a stored event is, by its columns (what can still be read of a row whose content cannot). */
export interface StoredEventPlace {
  position: number;
  stream: string;
  revision: number;
  event_id: string;
}

/**
 * 500: a stored event's row cannot be decoded (an unknown format, a cut or padded encoding, invalid JSON): the
 * storage was edited or damaged. Reading it fails with this, naming the row, never with a bare internal error;
 * `audit:verify` reports it as a break (`unreadable`).
 */
export class StoredEventUnreadableError extends InternalError {
  constructor(
    readonly place: StoredEventPlace,
    readonly part: 'data' | 'metadata',
    /** What failed to decode (the decoder's message). */
    readonly reason: string,
  ) {
    super(
      `the stored event at position ${place.position} cannot be read (its ${part}: ${reason}): run \`cairn audit:verify\``,
      'stored_event_unreadable',
      [{ message: reason, part, position: place.position }],
    );
  }
}

/** A projection failed the same step again and again: what a waiting rebuild stops with. */
export class ProjectionFailedError extends InternalError {
  constructor(projection: string, failures: number, cause: unknown) {
    const message = cause instanceof Error ? cause.message : String(cause);
    super(
      `projection ${projection} failed ${failures} times in a row: ${message} (run \`cairn audit:verify\`: an edited ` +
        'event can make a projection fail)',
      'projection_failed',
      [{ message, projection }],
    );
  }
}

import type { ErrorStatus } from './operations';

interface ErrorResponseSpec {
  description: string;
  code: string;
  headers?: Record<string, { description: string; schema: { type: string } }>;
}

/** The error statuses of ARCHITECTURE.md "HTTP conventions", each with an example code. */
const ERRORS: Record<Exclude<ErrorStatus, 304 | 431 | 503>, ErrorResponseSpec> = {
  400: { description: 'Malformed JSON or an unreadable request.', code: 'malformed_json' },
  401: {
    description: 'Missing or invalid bearer token.',
    code: 'missing_token',
    headers: { 'WWW-Authenticate': { description: 'Bearer realm="cairn"', schema: { type: 'string' } } },
  },
  403: {
    description: 'The token lacks the capability this operation needs (each detail names one `capability`).',
    code: 'missing_capability',
  },
  404: { description: 'Unknown, or not visible to this caller (never says which).', code: 'not_found' },
  409: { description: 'An idempotency conflict; the code says which.', code: 'idempotency_key_conflict' },
  413: { description: 'The body exceeds the documented bound.', code: 'payload_too_large' },
  415: { description: 'The body is not application/json.', code: 'unsupported_media_type' },
  422: {
    description:
      'Validation failed (details name the fields), or unsafe content was blocked (unsafe_content).',
    code: 'validation_failed',
  },
  429: {
    description:
      'Rate limited; retry after the Retry-After delay (the detail says `retryable: true` and `retry_after_ms`).',
    code: 'rate_limited',
    headers: { 'Retry-After': { description: 'seconds to wait', schema: { type: 'integer' } } },
  },
  500: {
    description: 'An unexpected failure on the server; the message is safe to show. Retrying may help.',
    code: 'internal_error',
  },
};

const json = (schema: Record<string, unknown>): Record<string, unknown> => ({
  'application/json': { schema },
});

/** The OpenAPI response object of one error status of the operation `operationId`. */
export function errorResponse(status: ErrorStatus, operationId: string): Record<string, unknown> {
  if (status === 304)
    return { description: 'Not modified (a conditional GET matched ETag / Last-Modified).' };
  // The HTTP server answers these itself, in its own shape, for every route (HttpServerError).
  const server = { $ref: '#/components/schemas/HttpServerError' };
  if (status === 431) {
    return { description: 'The request headers are too large.', content: json(server) };
  }
  if (status === 503) {
    const closing =
      'The server is shutting down (`Connection: close`): retry, on another process or after the restart.';
    return operationId === 'ready'
      ? {
          description: `A store is unreachable (ReadyResponse). ${closing}`,
          content: json({ oneOf: [{ $ref: '#/components/schemas/ReadyResponse' }, server] }),
        }
      : { description: closing, content: json(server) };
  }
  const spec = ERRORS[status];
  return {
    description: spec.description,
    ...(spec.headers ? { headers: spec.headers } : {}),
    content: {
      'application/json': {
        schema: { $ref: '#/components/schemas/Error' },
        example: { ok: false, error: { code: spec.code, message: spec.description, details: [] } },
      },
    },
  };
}

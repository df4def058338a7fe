import type { ErrorStatus } from './operations';

interface ErrorResponseSpec {
  description: string;
  code: string;
  headers?: Record<string, { description: string; schema: { type: string } }>;
}

/** The error statuses of ARCHITECTURE.md "HTTP conventions", each with an example code. */
const ERRORS: Record<Exclude<ErrorStatus, 304 | 503>, ErrorResponseSpec> = {
  400: { description: 'Malformed JSON or an unreadable request.', code: 'malformed_json' },
  401: {
    description: 'Missing or invalid bearer token.',
    code: 'missing_token',
    headers: { 'WWW-Authenticate': { description: 'Bearer realm="cairn"', schema: { type: 'string' } } },
  },
  403: { description: 'The token lacks the capability this operation needs.', code: 'missing_capability' },
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
    description: 'Rate limited; retry after the Retry-After delay.',
    code: 'rate_limited',
    headers: { 'Retry-After': { description: 'seconds to wait', schema: { type: 'integer' } } },
  },
};

/** The OpenAPI response object of one error status. */
export function errorResponse(status: ErrorStatus): Record<string, unknown> {
  if (status === 304)
    return { description: 'Not modified (a conditional GET matched ETag / Last-Modified).' };
  if (status === 503) {
    return {
      description: 'A store is unreachable.',
      content: { 'application/json': { schema: { $ref: '#/components/schemas/ReadyResponse' } } },
    };
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

import type { ApiErrorBody } from './types.js';

/** A non-2xx response: `status` and the API's error body (`{ok: false, error: {code, message, details}}`). */
export class CairnApiError extends Error {
  readonly code: string;
  constructor(
    readonly status: number,
    readonly body: ApiErrorBody | undefined,
  ) {
    super(body ? `${status} ${body.error.code}: ${body.error.message}` : `HTTP ${status}`);
    this.name = 'CairnApiError';
    this.code = body?.error.code ?? `http_${status}`;
  }
}

/** The data of an openapi-fetch result, or a CairnApiError for an error response. */
export function dataOrThrow<T>(result: { data?: T; error?: unknown; response: Response }): T {
  if (result.data !== undefined && result.response.ok) return result.data;
  throw new CairnApiError(result.response.status, result.error as ApiErrorBody | undefined);
}

/** The call took longer than the client's `timeoutMs`, every attempt and wait included. */
export class CairnTimeoutError extends Error {
  constructor(readonly timeoutMs: number) {
    super(`no answer within ${timeoutMs} ms`);
    this.name = 'TimeoutError';
  }
}

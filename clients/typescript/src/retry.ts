import { CairnTimeoutError } from './errors.js';

/** How the client retries one HTTP call, and how long it may take in all. */
export interface RetryOptions {
  /** Attempts in all, the first included (default 3; 1 turns retrying off). */
  maxAttempts?: number;
  /** The longest the call may take, every attempt and wait included, in ms (default 120,000). */
  timeoutMs?: number;
  /** The longest wait honoured between attempts, in ms (default 30,000); a longer Retry-After ends retrying. */
  maxDelayMs?: number;
  /** The first backoff after a 5xx or a network error, in ms (default 500; doubled each time, with jitter). */
  baseDelayMs?: number;
  /** How to wait (tests pass a recorder); must reject when the signal aborts. Defaults to a timer. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}

export type FetchFn = (request: Request) => Promise<Response>;

/** The fields of a request body that make a retried POST the same request to the server, not a second one. */
export const IDENTITY_FIELDS = ['idempotency_key', 'external_message_id', 'external_feedback_id'] as const;

const RETRIED_5XX = new Set([500, 502, 503, 504]);

export const abortableSleep = (ms: number, signal: AbortSignal): Promise<void> =>
  new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const done = (): void => {
      signal.removeEventListener('abort', aborted);
      resolve();
    };
    const timer = setTimeout(done, ms);
    const aborted = (): void => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', aborted, { once: true });
  });

/**
 * A fetch that retries, for openapi-fetch's `fetch` option:
 * - 429 after the server's delay: a detail's `retry_after_ms`, else `Retry-After` (seconds or an HTTP date); a 429
 *   that names neither (e.g. too many open MCP streams) is returned as it is;
 * - 500, 502, 503, 504 and network errors after an exponential backoff with jitter (or the server's Retry-After);
 * - a POST only when its body carries a retry identity (IDENTITY_FIELDS): the very same bytes are sent again, so
 *   the server recognises the retry; a POST without one is sent once (a 429 is retried: nothing was done);
 * - at most `maxAttempts` attempts, within `timeoutMs` in all (then CairnTimeoutError), and never after the
 *   request's own AbortSignal fired (its reason is thrown).
 * When retrying stops, the last response is returned as it is (openapi-fetch reports it as an error).
 */
export function retryingFetch(inner: FetchFn, options: RetryOptions = {}): FetchFn {
  const maxAttempts = Math.max(1, Math.floor(options.maxAttempts ?? 3));
  const timeoutMs = options.timeoutMs ?? 120_000;
  const maxDelayMs = options.maxDelayMs ?? 30_000;
  const baseDelayMs = options.baseDelayMs ?? 500;
  const sleep = options.sleep ?? abortableSleep;

  return async (request: Request): Promise<Response> => {
    const deadline = Date.now() + timeoutMs;
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(new CairnTimeoutError(timeoutMs)), timeoutMs);
    const signal = AbortSignal.any([request.signal, timeout.signal]);
    // The body is read once, so every attempt sends the same bytes (and the identity decision sees them).
    const body = request.body === null ? null : await request.arrayBuffer();
    const retriesNetworkAndServerErrors = isIdempotent(request.method) || hasIdentity(body);
    try {
      for (let attempt = 1; ; attempt++) {
        const last = attempt >= maxAttempts;
        let response: Response;
        try {
          response = await inner(new Request(request, { body, signal }));
        } catch (error) {
          if (signal.aborted) throw signal.reason;
          if (last || !retriesNetworkAndServerErrors) throw error;
          await wait(backoff(baseDelayMs, attempt));
          continue;
        }
        const delay = await retryDelay(response, retriesNetworkAndServerErrors, baseDelayMs, attempt);
        if (delay === null || last || delay > maxDelayMs || Date.now() + delay >= deadline) return response;
        await response.body?.cancel();
        await wait(delay);
      }
    } catch (error) {
      throw signal.aborted ? signal.reason : error;
    } finally {
      clearTimeout(timer);
    }

    function wait(ms: number): Promise<void> {
      return sleep(Math.min(ms, Math.max(0, deadline - Date.now())), signal);
    }
  };
}

function isIdempotent(method: string): boolean {
  return ['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE'].includes(method.toUpperCase());
}

function hasIdentity(body: ArrayBuffer | null): boolean {
  if (body === null || body.byteLength === 0) return false;
  try {
    const parsed: unknown = JSON.parse(new TextDecoder().decode(body));
    if (typeof parsed !== 'object' || parsed === null) return false;
    const fields = parsed as Record<string, unknown>;
    return IDENTITY_FIELDS.some((field) => typeof fields[field] === 'string' && fields[field] !== '');
  } catch {
    return false;
  }
}

function backoff(baseDelayMs: number, attempt: number): number {
  const ceiling = baseDelayMs * 2 ** (attempt - 1);
  return Math.round(ceiling / 2 + Math.random() * (ceiling / 2));
}

/** How long to wait before the next attempt after this response, or null when it is not to be retried. */
async function retryDelay(
  response: Response,
  retriesServerErrors: boolean,
  baseDelayMs: number,
  attempt: number,
): Promise<number | null> {
  if (response.status === 429) {
    return (await detailRetryAfterMs(response)) ?? retryAfterHeaderMs(response);
  }
  if (RETRIED_5XX.has(response.status) && retriesServerErrors) {
    return retryAfterHeaderMs(response) ?? backoff(baseDelayMs, attempt);
  }
  return null;
}

/** `Retry-After` as milliseconds: delta-seconds or an HTTP date; null when absent or unreadable. */
function retryAfterHeaderMs(response: Response): number | null {
  const value = response.headers.get('retry-after')?.trim();
  if (!value) return null;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - Date.now());
}

/** The error body's `retry_after_ms` of a detail that says `retryable: true`, if any. */
async function detailRetryAfterMs(response: Response): Promise<number | null> {
  try {
    const body = (await response.clone().json()) as {
      error?: { details?: Array<{ retryable?: unknown; retry_after_ms?: unknown }> };
    };
    for (const detail of body.error?.details ?? []) {
      const ms = detail.retry_after_ms;
      if (detail.retryable === true && typeof ms === 'number' && Number.isFinite(ms) && ms >= 0) return ms;
    }
  } catch {
    // not JSON: fall back to the header
  }
  return null;
}

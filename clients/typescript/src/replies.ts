import type { Client } from 'openapi-fetch';
import type { CallOptions } from './call-options.js';
import { dataOrThrow } from './errors.js';
import { abortableSleep } from './retry.js';
import type { paths, ReplyRequest, ReplySuccess, SystemStatus } from './types.js';

/**
 * What a reply request ends as. Branch on `outcome`: only `reply` carries text to show. A `system_status` is
 * operational state: never show it as assistant speech, and send no feedback for it.
 */
export type ReplyOutcome =
  | { outcome: 'reply'; reply: ReplySuccess; attempts: number }
  | {
      outcome: 'system_status';
      /** code, retryable, retry_after_ms, trace_id; an unknown code is still a non-answer. */
      status: SystemStatus;
      /** The request record's id, when the service has one. */
      reply_id: number | null;
      attempts: number;
    };

export interface RequestReplyOptions extends CallOptions {
  /** Attempts in all, the first included (default 3). A retryable status after the last one is returned. */
  maxAttempts?: number;
  /** The longest wait honoured between attempts, in ms (default 60,000); a longer retry_after_ms ends retrying. */
  maxWaitMs?: number;
  /** How to wait (tests pass a fake); defaults to a timer that the signal cancels. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/**
 * POST …/assistant/replies: a retryable system_status is retried with the very same body (same idempotency_key /
 * external_message_id) after its retry_after_ms, at most `maxAttempts` times. HTTP-level retries (429, 5xx,
 * network errors) happen below, in the client's fetch, with the same body. Non-2xx answers that remain (409
 * pending or conflicting, 422, …) throw CairnApiError; an aborted signal rejects with its reason.
 */
export async function requestReply(
  api: Client<paths>,
  request: ReplyRequest,
  options: RequestReplyOptions = {},
): Promise<ReplyOutcome> {
  if (request.idempotency_key === undefined && request.external_message_id === undefined) {
    // A retry without an identity would be a new request.
    throw new TypeError('requestReply needs idempotency_key or external_message_id');
  }
  const maxAttempts = Math.max(1, options.maxAttempts ?? 3);
  const maxWaitMs = options.maxWaitMs ?? 60_000;
  const signal = options.signal ?? new AbortController().signal;
  const sleep = options.sleep ?? abortableSleep;
  const body = structuredClone(request); // the same fields on every attempt, whatever the caller does meanwhile
  for (let attempt = 1; ; attempt++) {
    signal.throwIfAborted();
    const result = dataOrThrow(
      await api.POST('/app/api/tool-connectors/v1/assistant/replies', { body, signal }),
    );
    if (result.ok === true) return { outcome: 'reply', reply: result, attempts: attempt };
    const status = result.system_status;
    const retry = status.retryable && attempt < maxAttempts && status.retry_after_ms <= maxWaitMs;
    if (!retry) {
      return { outcome: 'system_status', status, reply_id: result.reply_id ?? null, attempts: attempt };
    }
    await sleep(status.retry_after_ms, signal);
    signal.throwIfAborted();
  }
}

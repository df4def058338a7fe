import type { Client } from 'openapi-fetch';
import { dataOrThrow } from './errors';
import type { paths, ReplyRequest, ReplySuccess, SystemStatus } from './types';

/**
 * What a reply request ends as. Branch on `outcome` (spec §4.6 rule 1): only `reply` carries text to show. A
 * `system_status` is operational state: never show it as assistant speech, and send no feedback for it (rule 2).
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

export interface RequestReplyOptions {
  /** Attempts in all, the first included (default 3). A retryable status after the last one is returned. */
  maxAttempts?: number;
  /** The longest wait honoured between attempts, in ms (default 60,000); a longer retry_after_ms ends retrying. */
  maxWaitMs?: number;
  /** How to wait (tests pass a fake); defaults to setTimeout. */
  sleep?: (ms: number) => Promise<void>;
}

const defaultSleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * POST …/assistant/replies, following spec §4.6 rules 1–3: a retryable system_status is retried with the very
 * same body (same idempotency_key / external_message_id) after its retry_after_ms, at most `maxAttempts` times.
 * Non-2xx answers (409 pending or conflicting, 422, …) throw CairnApiError.
 */
export async function requestReply(
  api: Client<paths>,
  request: ReplyRequest,
  options: RequestReplyOptions = {},
): Promise<ReplyOutcome> {
  if (request.idempotency_key === undefined && request.external_message_id === undefined) {
    // Spec §7 rule 5: a retry without an identity would be a new request.
    throw new TypeError('requestReply needs idempotency_key or external_message_id');
  }
  const maxAttempts = Math.max(1, options.maxAttempts ?? 3);
  const maxWaitMs = options.maxWaitMs ?? 60_000;
  const sleep = options.sleep ?? defaultSleep;
  const body = structuredClone(request); // the same fields on every attempt, whatever the caller does meanwhile
  for (let attempt = 1; ; attempt++) {
    const result = dataOrThrow(await api.POST('/app/api/tool-connectors/v1/assistant/replies', { body }));
    if (result.ok === true) return { outcome: 'reply', reply: result, attempts: attempt };
    const status = result.system_status;
    const retry = status.retryable && attempt < maxAttempts && status.retry_after_ms <= maxWaitMs;
    if (!retry) {
      return { outcome: 'system_status', status, reply_id: result.reply_id ?? null, attempts: attempt };
    }
    await sleep(status.retry_after_ms);
  }
}

/** Response bodies of the reply endpoint: spec §2.5 (from a stored receipt) and §2.8. Pure. */
import type { ReplyOutcome } from '../../events/replies/reply-request.events';
import type { ReplyReceiptV2 } from './reply-receipt';

export function successBody(
  receipt: ReplyReceiptV2,
  replay: boolean,
): Record<string, unknown> & { ok: true } {
  return {
    ok: true,
    reply_id: receipt.reply_id,
    conversation_id: receipt.conversation_id,
    message_id: receipt.assistant_message_id,
    agent_run_id: receipt.agent_run_id,
    external_thread_id: receipt.external_thread_id,
    external_message_id: receipt.external_message_id,
    suggested_response: { text: receipt.final_text },
    references: receipt.references.map(({ revision: _revision, ...reference }) => reference),
    source_links: receipt.source_links,
    source_count: receipt.source_links.length,
    contract_version: receipt.contract_version,
    memory_recall_trace_id: receipt.memory_recall_trace_id,
    answer_mode: receipt.answer_mode,
    answer_intent: receipt.answer_intent,
    generated_by_ai: true,
    grounding: { ...receipt.grounding, idempotent_replay: replay },
    usage: receipt.usage,
  };
}

/**
 * Spec §2.8. `reply_id` is present when a request record exists, except in the insufficient-evidence form
 * (spec §4.6 rule 9), which never carries it.
 */
export function systemStatusBody(
  outcome: ReplyOutcome,
  replyId: number | null,
  replayed = false,
): Record<string, unknown> & { ok: false } {
  const withReplyId = replyId !== null && outcome.code !== 'authoritative_evidence_insufficient';
  return {
    ok: false,
    outcome: 'system_status',
    answer: null,
    assistant_message: null,
    ...(withReplyId ? { reply_id: replyId } : {}),
    request_status: 'failed',
    message_id: null,
    feedback_token: null,
    system_status: {
      code: outcome.code,
      retryable: outcome.retryable,
      retry_after_ms: outcome.retry_after_ms,
      trace_id: outcome.trace_id,
      ...(replayed ? { idempotent_replay: true, message: freshReplyHint(outcome.code) } : {}),
    },
  };
}

/**
 * What a client reads when a non-retryable failure is replayed (the same idempotency identity sent again): the
 * stored outcome stands even after the cause was fixed (a model configured), so a fresh reply needs a new identity.
 */
export function freshReplyHint(code: string): string {
  return (
    `${code} is the stored outcome of an earlier request with the same external_message_id or idempotency_key; ` +
    'it is replayed, not retried, even after the cause was fixed. For a fresh reply, send the message again ' +
    'with a new external_message_id (and a new idempotency_key, if you send one)'
  );
}

import { ValidationFailedError } from '../../common/errors';
import type { ReplyKeyKind } from '../../events/replies/reply-request.events';
import { canonicalDigest, firstRetryKey } from '../shared/canonical-digest';

/**
 * Reply idempotency (spec §3, §4.6 rule 6): WHO is asking again (the identity, which names the stream) and WHAT
 * they ask (the fingerprint, which must match for a replay).
 */

export type ReplyIdentityInput = {
  organization_id: number;
  connector_id: number;
  /** The resolved chatbot (the request may omit chatbot_id when the organization has one assistant). */
  chatbot_id: number;
  idempotency_key?: string | null;
  external_message_id?: string | null;
};

export type ReplyIdentity = {
  key_kind: ReplyKeyKind;
  key: string;
  /** SHA-256 (hex) of the canonical JSON of the identity tuple; `streams.replyRequest(digest)`. */
  digest: string;
};

/**
 * The identity of a reply request: (organization, connector, chatbot, key kind, key).
 *
 * - The idempotency key takes precedence when both keys are sent: it is the caller's explicit retry key, whereas a
 *   message id may be shared by several deliberate requests (e.g. a regeneration under a fresh key). The external
 *   message id still counts: it is part of the fingerprint, so reusing a key with another message id is a 409.
 * - The key kind is part of the tuple, so an idempotency key and an external message id with the same text never
 *   name the same request.
 * - An empty string counts as absent. Neither key → 422 (retrying without either is a client mistake, spec §7.5).
 */
export function replyIdentity(input: ReplyIdentityInput): ReplyIdentity {
  const chosen = firstRetryKey<ReplyKeyKind>([
    ['idempotency_key', input.idempotency_key],
    ['external_message_id', input.external_message_id],
  ]);
  if (chosen === null) {
    throw new ValidationFailedError('idempotency_key or external_message_id is required', [
      { field: 'idempotency_key', message: 'send idempotency_key or external_message_id' },
      { field: 'external_message_id', message: 'send idempotency_key or external_message_id' },
    ]);
  }
  const { organization_id, connector_id, chatbot_id } = input;
  const { key_kind, key } = chosen;
  const digest = canonicalDigest({ organization_id, connector_id, chatbot_id, key_kind, key });
  return { key_kind, key, digest };
}

/**
 * Every identity a request carries, the primary first (the idempotency key when both are sent): spec §3, a request
 * matching an earlier one by EITHER key is that request. Each names a claim stream (streams.replyClaim); the primary
 * also names a new request's stream. Neither key → 422.
 */
export function replyIdentities(input: ReplyIdentityInput): ReplyIdentity[] {
  const primary = replyIdentity(input);
  if (primary.key_kind === 'external_message_id' || !input.external_message_id) return [primary];
  const byMessage = replyIdentity({ ...input, idempotency_key: null });
  return [primary, byMessage];
}

/** The request content the fingerprint covers. Absent optional fields are null (never undefined). */
export type ReplyRequestContent = {
  chatbot_id: number;
  external_thread_id: string;
  external_message_id: string | null;
  idempotency_key: string | null;
  channel: string | null;
  response_mode: string | null;
  /** The payload as received (subject, from, sent_at, text, history, recipient...). */
  payload: Record<string, unknown>;
};

/**
 * SHA-256 (hex) of the canonical JSON (RFC 8785, json-canonicalize) of the request content: stable under key order,
 * different on any content change. The retry keys are NOT content: they say which request this is (the identity),
 * so the same message sent under another idempotency key, or without one, is the same request (spec §3).
 *
 * `metadata` is deliberately NOT covered either: it is free-form caller bookkeeping (e.g. `source`, a delivery
 * attempt counter), it never reaches the model or the evidence, and callers commonly stamp it per attempt; a retry
 * that only changes metadata asks the same thing and must replay, not 409. Everything that shapes the answer is
 * covered. The resolved chatbot id is used, so omitting chatbot_id for a single-assistant organization changes
 * nothing.
 */
export function requestFingerprint(content: ReplyRequestContent): string {
  return canonicalDigest({
    version: 2,
    chatbot_id: content.chatbot_id,
    external_thread_id: content.external_thread_id,
    channel: content.channel ?? null,
    response_mode: content.response_mode ?? null,
    payload: content.payload,
  });
}

/** The fingerprint requests recorded before version 2 carry (the retry keys included), to recognize them. */
export function legacyRequestFingerprint(content: ReplyRequestContent): string {
  return canonicalDigest({
    chatbot_id: content.chatbot_id,
    external_thread_id: content.external_thread_id,
    external_message_id: content.external_message_id ?? null,
    idempotency_key: content.idempotency_key ?? null,
    channel: content.channel ?? null,
    response_mode: content.response_mode ?? null,
    payload: content.payload,
  });
}

export type ConversationThreadInput = {
  organization_id: number;
  connector_id: number;
  chatbot_id: number;
  external_thread_id: string;
};

/** SHA-256 (hex) of (organization, connector, chatbot, external_thread_id): `streams.conversationThread(digest)`. */
export function conversationThreadDigest(input: ConversationThreadInput): string {
  const { organization_id, connector_id, chatbot_id, external_thread_id } = input;
  return canonicalDigest({ organization_id, connector_id, chatbot_id, external_thread_id });
}

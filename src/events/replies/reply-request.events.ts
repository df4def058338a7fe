import type { DomainEvent } from '../domain-event';

/**
 * Events of a reply request stream, `reply-request-{digest}` (streams.replyRequest), keyed by the SHA-256 of the
 * reply identity (organization, connector, chatbot, retry key or external message id). The first append wins the
 * identity; later requests with the same identity are answered from this stream (spec §3).
 */

/** Which caller key identifies the request: the idempotency key takes precedence over the external message id. */
export type ReplyKeyKind = 'idempotency_key' | 'external_message_id';

/**
 * A stored typed outcome (the system_status object of spec §2.8). `code` is a string, not the closed code list,
 * so an event written by a newer build with a new code still reads (spec §9.5).
 */
export type ReplyOutcome = {
  code: string;
  retryable: boolean;
  retry_after_ms: number;
  trace_id: string | null;
};

/**
 * A receipt as stored. New completions always store a v2 receipt (commands/replies/reply-receipt.ts); older or
 * unknown versions must still be representable, because they are never replayed but must be recognized (§9.4).
 */
export type StoredReplyReceipt = { version: number } & Record<string, unknown>;

/** The first request with an identity: the request record, its content fingerprint and token provenance. */
export type ReplyRequested = DomainEvent<
  'ReplyRequested',
  {
    reply_id: number;
    organization_id: number;
    connector_id: number;
    chatbot_id: number;
    /** SHA-256 (hex) of the identity tuple; the stream is keyed by it. */
    identity_digest: string;
    key_kind: ReplyKeyKind;
    /** The caller's idempotency key or external message id, whichever `key_kind` names. */
    key: string;
    /** SHA-256 (hex) of the canonical request content (reply-identity.ts requestFingerprint). */
    fingerprint: string;
    external_thread_id: string;
    external_message_id: string | null;
    /** The token the request authenticated with: provenance; a rotated token of the same connector may replay. */
    token_id: string;
    /** Who is processing the request (process and request), and until when: a crash leaves an expiring lease. */
    lease_owner: string;
    lease_expires_at: string;
    requested_at: string;
  }
>;

/**
 * A repeated request took the request over again: after a reclaimable failure with no assistant message, or after
 * the previous attempt's lease expired (a crashed process).
 */
export type ReplyRequestReclaimed = DomainEvent<
  'ReplyRequestReclaimed',
  {
    reply_id: number;
    organization_id: number;
    /** 2 for the first reclaim; the original request is attempt 1. */
    attempt: number;
    /** The token the reclaiming request authenticated with (the original stays in ReplyRequested). */
    token_id: string;
    lease_owner: string;
    lease_expires_at: string;
    reclaimed_at: string;
    /** The stored outcome code that was reclaimed, or `lease_expired` for a pending request whose lease ran out. */
    previous_outcome: string;
  }
>;

/** The reviewed reply was stored; the receipt binds everything a replay must revalidate (spec §9.3). */
export type ReplyCompleted = DomainEvent<
  'ReplyCompleted',
  {
    reply_id: number;
    organization_id: number;
    attempt: number;
    receipt: StoredReplyReceipt;
    completed_at: string;
  }
>;

/** The attempt ended with a typed system_status; its retry semantics come from the one outcome policy. */
export type ReplyFailed = DomainEvent<
  'ReplyFailed',
  {
    reply_id: number;
    organization_id: number;
    attempt: number;
    outcome: ReplyOutcome;
    /** True when an assistant message was already persisted: a repeat is then a 409, never a reclaim. */
    assistant_message_persisted: boolean;
    failed_at: string;
    /** Operator-facing detail (never shown to the connector). */
    detail?: string;
  }
>;

export type ReplyRequestEvent = ReplyRequested | ReplyRequestReclaimed | ReplyCompleted | ReplyFailed;

import type { DomainEvent } from '../domain-event';

/** Which caller key identifies a feedback submission: `external_feedback_id` takes precedence (spec §4.7 rule 3). */
export type FeedbackKeyKind = 'external_feedback_id' | 'idempotency_key';

export const FEEDBACK_OUTCOMES = ['accepted', 'corrected', 'rejected'] as const;
export const FEEDBACK_RATINGS = ['up', 'down', 'none'] as const;

export type FeedbackOutcome = (typeof FEEDBACK_OUTCOMES)[number];
export type FeedbackRating = (typeof FEEDBACK_RATINGS)[number];

/**
 * Feedback on an assistant message of the external reply endpoint (spec §4.7), on `reply-feedback-{digest}`
 * (streams.replyFeedback), keyed by the SHA-256 of (organization, connector, message, key kind, key) of the primary
 * key of the submission that created it; every key of the feedback is claimed for it (feedback-claim.events.ts). It
 * follows `ReplyFeedbackReserved` (same ids); a retry under any of its keys with the same content replays it.
 *
 * `outcome` is null when the rating is `none` (it clears the outcome). `proposal_id` names the pending memory
 * proposal a `corrected` outcome created (null otherwise); it is never approved here.
 */
export type ReplyFeedbackSubmitted = DomainEvent<
  'ReplyFeedbackSubmitted',
  {
    feedback_id: number;
    /** The review item recorded for this feedback (spec §2.9 `response_review_id`). */
    response_review_id: number;
    proposal_id: number | null;
    organization_id: number;
    connector_id: number;
    message_id: number;
    reply_id: number;
    conversation_id: number;
    retry_key_kind: FeedbackKeyKind;
    retry_key: string;
    /** SHA-256 (hex) of the canonical JSON of the submitted content (commands/replies/feedback-rules.ts). */
    fingerprint: string;
    outcome: FeedbackOutcome | null;
    rating: FeedbackRating;
    feedback_kind: string | null;
    feedback_issue: string | null;
    suggested_answer: string | null;
    note: string | null;
    submitted_at: string;
  }
>;

/**
 * The first event of a new feedback stream: the ids (and the correction proposal id) of the feedback about to be
 * recorded, and what it says (the fingerprint), appended with expected revision "no stream" before any proposal
 * exists, so concurrent submissions of one feedback agree on one proposal id and only one proposal is captured.
 * A crash before `ReplyFeedbackSubmitted` is resumed by the next retry under any of its keys.
 */
export type ReplyFeedbackReserved = DomainEvent<
  'ReplyFeedbackReserved',
  Omit<ReplyFeedbackSubmitted['data'], 'submitted_at'> & {
    /** The memory source the correction proposal registers (null without a proposal). */
    memory_source_id: number | null;
    /** The request's external_feedback_id (null when absent): a key matching another one is a 409. */
    external_feedback_id: string | null;
    reserved_at: string;
  }
>;

/**
 * The first (and only) event of a feedback stream that was claimed but never reserved (its claimant lost a race or
 * crashed) and whose identities belong to another feedback: resolution follows it; nothing can be reserved here.
 */
export type ReplyFeedbackMoved = DomainEvent<
  'ReplyFeedbackMoved',
  { organization_id: number; feedback_digest: string; moved_at: string }
>;

export type ReplyFeedbackEvent = ReplyFeedbackReserved | ReplyFeedbackSubmitted | ReplyFeedbackMoved;

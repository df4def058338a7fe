import type { DomainEvent } from '../domain-event';

/** Which caller key identifies a feedback submission: `external_feedback_id` takes precedence (spec §4.7 rule 3). */
export type FeedbackKeyKind = 'external_feedback_id' | 'idempotency_key';

export const FEEDBACK_OUTCOMES = ['accepted', 'corrected', 'rejected'] as const;
export const FEEDBACK_RATINGS = ['up', 'down', 'none'] as const;

export type FeedbackOutcome = (typeof FEEDBACK_OUTCOMES)[number];
export type FeedbackRating = (typeof FEEDBACK_RATINGS)[number];

/**
 * Feedback on an assistant message of the external reply endpoint (spec §4.7), on `reply-feedback-{digest}`
 * (streams.replyFeedback), keyed by the SHA-256 of (organization, connector, message, retry key kind, retry key).
 * The first submission under a retry identity wins; a retry with the same content replays it.
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

export type ReplyFeedbackEvent = ReplyFeedbackSubmitted;

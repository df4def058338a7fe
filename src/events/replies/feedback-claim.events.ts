import type { DomainEvent } from '../domain-event';
import type { FeedbackKeyKind } from './feedback.events';

/**
 * The claim of one feedback identity (an external_feedback_id or an idempotency_key, scoped to organization,
 * connector and assistant message) on `reply-feedback-claim-{digest}` (streams.feedbackClaim): the feedback stream
 * (`reply-feedback-{feedback_digest}`) it belongs to. The first claim wins (expected revision "no stream").
 */
export type FeedbackIdentityClaimed = DomainEvent<
  'FeedbackIdentityClaimed',
  {
    organization_id: number;
    connector_id: number;
    message_id: number;
    key_kind: FeedbackKeyKind;
    key: string;
    feedback_digest: string;
    claimed_at: string;
  }
>;

export type FeedbackClaimEvent = FeedbackIdentityClaimed;

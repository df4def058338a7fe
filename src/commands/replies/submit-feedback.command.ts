import type { FeedbackOutcome, FeedbackRating } from '../../events/replies/feedback.events';
import type { ConnectorPrincipal } from '../../http/auth/connector-principal';
import type { CommandContext } from '../shared/command-context';

/** A feedback request as received (spec §4.7). Absent fields are null. */
export interface SubmitFeedbackInput {
  outcome: FeedbackOutcome | null;
  rating: FeedbackRating | null;
  feedback_kind: string | null;
  feedback_issue: string | null;
  suggested_answer: string | null;
  note: string | null;
  external_feedback_id: string | null;
  idempotency_key: string | null;
}

export class SubmitFeedbackCommand {
  constructor(
    readonly connector: ConnectorPrincipal,
    /** The assistant message the feedback is about (the reply's message_id). */
    readonly messageId: number,
    readonly input: SubmitFeedbackInput,
    readonly context: CommandContext,
  ) {}
}

/**
 * Spec §2.9. `outcome` is null when the rating is `none` (it clears the outcome). `proposal_id` is present only
 * for `corrected` (the key is absent otherwise, never null).
 */
export interface SubmitFeedbackResult {
  ok: true;
  outcome: FeedbackOutcome | null;
  rating: FeedbackRating;
  feedback_id: number;
  response_review_id: number;
  proposal_id?: number;
  idempotent_replay: boolean;
}

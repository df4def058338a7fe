import { ConflictError } from '../../common/errors';
import type { ReplyFeedbackEvent, ReplyFeedbackSubmitted } from '../../events/replies/feedback.events';
import type { Decider } from '../shared/decider';

export type FeedbackCommand = { type: 'SubmitFeedback'; feedback: ReplyFeedbackSubmitted['data'] };

export type FeedbackState = {
  /** The first submission under this retry identity; null before it. */
  submitted: ReplyFeedbackSubmitted['data'] | null;
};

/**
 * One retry identity's feedback (`reply-feedback-{digest}`, spec §4.7 rule 3): the first submission wins; the same
 * content (fingerprint) again records nothing (a replay of the first); other content is a 409.
 */
export const feedbackDecider: Decider<FeedbackCommand, FeedbackState, ReplyFeedbackEvent> = {
  initialState: () => ({ submitted: null }),
  evolve: (state, event) => (state.submitted ? state : { submitted: event.data }),
  decide(command, state) {
    if (!state.submitted) return [{ type: 'ReplyFeedbackSubmitted', data: command.feedback }];
    assertSameSubmission(state.submitted, command.feedback.fingerprint);
    return [];
  },
};

/** Throws 409 `feedback_key_reused` unless `fingerprint` is the stored submission's. */
export function assertSameSubmission(submitted: ReplyFeedbackSubmitted['data'], fingerprint: string): void {
  if (submitted.fingerprint === fingerprint) return;
  const field = submitted.retry_key_kind;
  throw new ConflictError(
    'feedback_key_reused',
    `this ${field} was already used for feedback with different content`,
    [{ field, message: 'reused with different content' }],
  );
}

import { ConflictError } from '../../common/errors';
import type {
  FeedbackKeyKind,
  ReplyFeedbackEvent,
  ReplyFeedbackReserved,
  ReplyFeedbackSubmitted,
} from '../../events/replies/feedback.events';
import type { Decider } from '../shared/decider';

export type FeedbackCommand =
  | { type: 'ReserveFeedback'; reservation: ReplyFeedbackReserved['data'] }
  | { type: 'SubmitFeedback'; feedback: ReplyFeedbackSubmitted['data'] }
  | { type: 'MoveFeedback'; organization_id: number; to: string; now_ms: number };

export type FeedbackState = {
  /** The reservation (ids and fingerprint) of the feedback about to be recorded; null before it. */
  reserved: ReplyFeedbackReserved['data'] | null;
  /** The recorded feedback; null before it. */
  submitted: ReplyFeedbackSubmitted['data'] | null;
  /** Set when this stream was never reserved and its identities belong to the feedback on this stream. */
  moved_to: string | null;
};

/**
 * One feedback (`reply-feedback-{digest}`, spec §4.7 rule 3): reserved first (its ids, its proposal id, what it
 * says), then recorded; the first reservation wins, and the same content again records nothing (a replay); other
 * content is a 409. A stream that was never reserved can be moved to another feedback; a moved stream takes no
 * reservation (the caller sees `moved_to` and resolves again).
 */
export const feedbackDecider: Decider<FeedbackCommand, FeedbackState, ReplyFeedbackEvent> = {
  initialState: () => ({ reserved: null, submitted: null, moved_to: null }),
  evolve(state, event) {
    if (event.type === 'ReplyFeedbackReserved')
      return state.reserved ? state : { ...state, reserved: event.data };
    if (event.type === 'ReplyFeedbackMoved') return { ...state, moved_to: event.data.feedback_digest };
    return state.submitted ? state : { ...state, submitted: event.data };
  },
  decide(command, state) {
    if (command.type === 'MoveFeedback') {
      if (state.reserved || state.submitted || state.moved_to !== null) return [];
      const data = {
        organization_id: command.organization_id,
        feedback_digest: command.to,
        moved_at: new Date(command.now_ms).toISOString(),
      };
      return [{ type: 'ReplyFeedbackMoved', data }];
    }
    if (state.moved_to !== null) return [];
    const incoming = command.type === 'ReserveFeedback' ? command.reservation : command.feedback;
    const first = state.submitted ?? state.reserved;
    if (first) assertSameSubmission(first, incoming.fingerprint);
    if (command.type === 'ReserveFeedback')
      return first ? [] : [{ type: 'ReplyFeedbackReserved', data: command.reservation }];
    return state.submitted ? [] : [{ type: 'ReplyFeedbackSubmitted', data: command.feedback }];
  },
};

/** Throws 409 `feedback_key_reused`, naming `field` (default: the stored key), unless the fingerprints match. */
export function assertSameSubmission(
  stored: Pick<ReplyFeedbackSubmitted['data'], 'fingerprint' | 'retry_key_kind'>,
  fingerprint: string,
  field: FeedbackKeyKind = stored.retry_key_kind,
): void {
  if (stored.fingerprint === fingerprint) return;
  throw new ConflictError(
    'feedback_key_reused',
    `this ${field} was already used for feedback with different content`,
    [{ field, message: 'reused with different content' }],
  );
}

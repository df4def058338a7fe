import { feedbackDecider, type FeedbackCommand } from '../../../src/commands/replies/feedback.decider';
import { fold } from '../../../src/commands/shared/decider';
import type {
  ReplyFeedbackMoved,
  ReplyFeedbackReserved,
  ReplyFeedbackSubmitted,
} from '../../../src/events/replies/feedback.events';
import { givenDecider } from '../../support/decider-spec';

const given = givenDecider(feedbackDecider);

const feedback: ReplyFeedbackSubmitted['data'] = {
  feedback_id: 40,
  response_review_id: 41,
  proposal_id: 42,
  organization_id: 1,
  connector_id: 2,
  message_id: 31,
  reply_id: 10,
  conversation_id: 20,
  retry_key_kind: 'external_feedback_id',
  retry_key: 'fb-1',
  fingerprint: 'a'.repeat(64),
  outcome: 'corrected',
  rating: 'down',
  feedback_kind: 'answer_correction',
  feedback_issue: 'not_factually_correct',
  suggested_answer: 'We open at 9.',
  note: null,
  submitted_at: '2026-07-17T10:00:00.000Z',
};
const submit = (data: ReplyFeedbackSubmitted['data']): FeedbackCommand => ({
  type: 'SubmitFeedback',
  feedback: data,
});
const submitted: ReplyFeedbackSubmitted = { type: 'ReplyFeedbackSubmitted', data: feedback };

describe('reply feedback decider', () => {
  it('the first submission under a retry identity is recorded', () => {
    given([]).when(submit(feedback)).then([submitted]);
  });

  it('the same content again records nothing (a replay), even with freshly allocated ids', () => {
    given([submitted])
      .when(submit({ ...feedback, feedback_id: 50, response_review_id: 51, proposal_id: 52 }))
      .then([]);
  });

  it('other content under the same retry identity is a 409 feedback_key_reused naming the key', () => {
    given([submitted])
      .when(submit({ ...feedback, fingerprint: 'b'.repeat(64) }))
      .thenThrows('feedback_key_reused');
    let caught: unknown;
    try {
      feedbackDecider.decide(
        submit({ ...feedback, fingerprint: 'b'.repeat(64) }),
        fold(feedbackDecider, [submitted]),
      );
    } catch (error) {
      caught = error;
    }
    expect(caught).toMatchObject({ status: 409, details: [{ field: 'external_feedback_id' }] });
  });

  it('the state keeps the first submission (its ids are what a replay answers with)', () => {
    const later: ReplyFeedbackSubmitted = {
      type: 'ReplyFeedbackSubmitted',
      data: { ...feedback, feedback_id: 99 },
    };
    expect(fold(feedbackDecider, []).submitted).toBeNull();
    expect(fold(feedbackDecider, [submitted, later]).submitted).toEqual(feedback);
  });

  describe('reservation and moves', () => {
    const { submitted_at: _at, ...rest } = feedback;
    const reservation: ReplyFeedbackReserved['data'] = {
      ...rest,
      memory_source_id: 43,
      external_feedback_id: 'fb-1',
      reserved_at: '2026-07-17T10:00:00.000Z',
    };
    const reserved: ReplyFeedbackReserved = { type: 'ReplyFeedbackReserved', data: reservation };
    const reserve = (data: ReplyFeedbackReserved['data']): FeedbackCommand => ({
      type: 'ReserveFeedback',
      reservation: data,
    });
    const move: FeedbackCommand = { type: 'MoveFeedback', organization_id: 1, to: 'd2', now_ms: 0 };
    const moved: ReplyFeedbackMoved = {
      type: 'ReplyFeedbackMoved',
      data: { organization_id: 1, feedback_digest: 'd2', moved_at: new Date(0).toISOString() },
    };

    it('the first reservation wins; the same content again adopts it; other content is a 409', () => {
      given([]).when(reserve(reservation)).then([reserved]);
      given([reserved])
        .when(reserve({ ...reservation, feedback_id: 60, proposal_id: 62 }))
        .then([]);
      given([reserved])
        .when(reserve({ ...reservation, fingerprint: 'b'.repeat(64) }))
        .thenThrows('feedback_key_reused');
      expect(fold(feedbackDecider, [reserved, reserved]).reserved).toEqual(reservation);
    });

    it('a reserved feedback is recorded once', () => {
      given([reserved]).when(submit(feedback)).then([submitted]);
      given([reserved, submitted]).when(submit(feedback)).then([]);
    });

    it('only a stream never reserved can be moved; a moved stream takes no reservation', () => {
      given([]).when(move).then([moved]);
      given([reserved]).when(move).then([]);
      given([moved]).when(reserve(reservation)).then([]);
      given([moved]).when(submit(feedback)).then([]);
      expect(fold(feedbackDecider, [moved]).moved_to).toBe('d2');
    });
  });
});

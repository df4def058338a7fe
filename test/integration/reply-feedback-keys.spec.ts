import { legacyFeedbackFingerprint } from '../../src/commands/replies/feedback-rules';
import { systemContext } from '../../src/commands/shared/command-context';
import { StreamCommandExecutor } from '../../src/commands/shared/stream-command-executor';
import { streams } from '../../src/events/domain-event';
import { useFeedbackHarness } from '../support/feedback-harness';
import { CORRECTED, keyIdentity, proposalsFor, submittedFor } from '../support/feedback-identity-fixtures';

/**
 * Feedback identity (spec §4.7 rule 3): external_feedback_id (F) and idempotency_key (K) EACH identify a feedback
 * on one assistant message; a match on either is that feedback (same content: a replay; other content: 409 naming
 * the key that matched); one feedback and at most one correction proposal per identity. Races and crashes:
 * reply-feedback-races.spec.ts.
 */
describe('one feedback per identity: the key matrix (spec §4.7 rule 3)', () => {
  const h = useFeedbackHarness();
  const context = systemContext('test');

  it('F1+K1, then K1 alone, then F1 alone: one feedback, one proposal, replays append nothing', async () => {
    const { message_id } = await h.seedMessage();
    const [F1, K1] = [h.key(), h.key()];
    const first = await h.feedback(message_id, {
      ...CORRECTED,
      external_feedback_id: F1,
      idempotency_key: K1,
    });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ outcome: 'corrected', idempotent_replay: false });
    const before = await h.head();
    for (const keys of [{ idempotency_key: K1 }, { external_feedback_id: F1 }]) {
      const again = await h.feedback(message_id, { ...CORRECTED, ...keys });
      expect([again.status, again.body]).toEqual([200, { ...first.body, idempotent_replay: true }]);
    }
    expect(await h.head()).toBe(before);
    expect(await proposalsFor(h, message_id)).toEqual([first.body.proposal_id]);
    expect(await submittedFor(h, message_id)).toBe(1);
  });

  it('F1+K2 after F1+K1 is the same feedback, and K2 alone then finds it too', async () => {
    const { message_id } = await h.seedMessage();
    const [F1, K1, K2] = [h.key(), h.key(), h.key()];
    const first = await h.feedback(message_id, {
      ...CORRECTED,
      external_feedback_id: F1,
      idempotency_key: K1,
    });
    const second = await h.feedback(message_id, {
      ...CORRECTED,
      external_feedback_id: F1,
      idempotency_key: K2,
    });
    expect(second.body).toEqual({ ...first.body, idempotent_replay: true });
    const third = await h.feedback(message_id, { ...CORRECTED, idempotency_key: K2 });
    expect(third.body).toEqual({ ...first.body, idempotent_replay: true });
    expect(await proposalsFor(h, message_id)).toEqual([first.body.proposal_id]);
  });

  it('K1+F2 after F1+K1 is 409 naming idempotency_key (K1 belongs to F1), nothing recorded', async () => {
    const { message_id } = await h.seedMessage();
    const [F1, K1, F2] = [h.key(), h.key(), h.key()];
    await h.feedback(message_id, { ...CORRECTED, external_feedback_id: F1, idempotency_key: K1 });
    const before = await h.head();
    const res = await h.feedback(message_id, { ...CORRECTED, external_feedback_id: F2, idempotency_key: K1 });
    expect(res.status).toBe(409);
    expect(res.body.error).toMatchObject({
      code: 'feedback_key_reused',
      details: [{ field: 'idempotency_key' }],
    });
    expect(await h.head()).toBe(before);
  });

  it('F1+K3 when F1 and K3 name two recorded feedbacks is 409 naming idempotency_key', async () => {
    const { message_id } = await h.seedMessage();
    const [F1, K1, F3, K3] = [h.key(), h.key(), h.key(), h.key()];
    await h.feedback(message_id, { ...CORRECTED, external_feedback_id: F1, idempotency_key: K1 });
    await h.feedback(message_id, { rating: 'up', external_feedback_id: F3, idempotency_key: K3 });
    const before = await h.head();
    const res = await h.feedback(message_id, { ...CORRECTED, external_feedback_id: F1, idempotency_key: K3 });
    expect(res.status).toBe(409);
    expect(res.body.error).toMatchObject({
      code: 'feedback_key_reused',
      details: [{ field: 'idempotency_key' }],
    });
    expect(await h.head()).toBe(before);
  });

  it('changed content is 409 naming the key that matched', async () => {
    const { message_id } = await h.seedMessage();
    const [F1, K1] = [h.key(), h.key()];
    await h.feedback(message_id, { ...CORRECTED, external_feedback_id: F1, idempotency_key: K1 });
    const before = await h.head();
    const changed = { ...CORRECTED, suggested_answer: 'We open at 11.' };
    for (const [keys, field] of [
      [{ idempotency_key: K1 }, 'idempotency_key'],
      [{ external_feedback_id: F1 }, 'external_feedback_id'],
    ] as const) {
      const res = await h.feedback(message_id, { ...changed, ...keys });
      expect(res.status).toBe(409);
      expect(res.body.error).toMatchObject({ code: 'feedback_key_reused', details: [{ field }] });
    }
    expect(await h.head()).toBe(before);
    expect(await submittedFor(h, message_id)).toBe(1);
  });

  it('feedback recorded before this version (no claims, keys in the fingerprint) still replays', async () => {
    const { message_id, reply_id, conversation_id } = await h.seedMessage();
    const [F1, K1] = [h.key(), h.key()];
    const f1 = keyIdentity(h, message_id, { external_feedback_id: F1 });
    const content = {
      outcome: 'rejected' as const,
      rating: 'down' as const,
      feedback_kind: null,
      feedback_issue: null,
      suggested_answer: null,
      note: 'Too vague.',
    };
    const data = {
      feedback_id: 990_001,
      response_review_id: 990_002,
      proposal_id: null,
      organization_id: h.org,
      connector_id: h.connectorId,
      message_id,
      reply_id,
      conversation_id,
      retry_key_kind: 'external_feedback_id',
      retry_key: F1,
      fingerprint: legacyFeedbackFingerprint({ ...content, external_feedback_id: F1, idempotency_key: K1 }),
      ...content,
      submitted_at: new Date().toISOString(),
    };
    await h.t.app
      .get(StreamCommandExecutor)
      .append(
        streams.replyFeedback(f1.digest),
        [{ type: 'ReplyFeedbackSubmitted', data }],
        'no_stream',
        context,
        h.org,
      );
    const body = { outcome: 'rejected', note: 'Too vague.', external_feedback_id: F1, idempotency_key: K1 };
    const replay = await h.feedback(message_id, body);
    expect(replay.status).toBe(200);
    expect(replay.body).toMatchObject({ feedback_id: 990_001, idempotent_replay: true });
    // Its keys are claimed by that replay, so the key alone now finds it too.
    const byKey = await h.feedback(message_id, { ...body, external_feedback_id: undefined });
    expect(byKey.body).toMatchObject({ feedback_id: 990_001, idempotent_replay: true });
    const changed = await h.feedback(message_id, { ...body, note: 'Other.' });
    expect(changed.status).toBe(409);
    expect(await submittedFor(h, message_id)).toBe(1);
  });
});

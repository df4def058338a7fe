import { FeedbackClaims } from '../../src/commands/replies/feedback-claims';
import { streams } from '../../src/events/domain-event';
import { useFeedbackHarness } from '../support/feedback-harness';
import {
  appendClaim,
  appendReservation,
  CORRECTED,
  keyIdentity,
  proposalsFor,
  submittedFor,
} from '../support/feedback-identity-fixtures';

/**
 * Feedback identity under races and crashes (in one process; across processes:
 * feedback-identity-multiprocess.spec.ts): one feedback and at most one correction proposal per identity.
 */
describe('one feedback per identity: races and crashes', () => {
  const h = useFeedbackHarness();

  it('30 concurrent submissions mixing F1 with K1, K2 and no key: one feedback, one proposal', async () => {
    const { message_id } = await h.seedMessage();
    const [F1, K1, K2] = [h.key(), h.key(), h.key()];
    const variants = [{ idempotency_key: K1 }, { idempotency_key: K2 }, {}];
    const responses = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        h.feedback(message_id, { ...CORRECTED, external_feedback_id: F1, ...variants[i % 3] }),
      ),
    );
    const answered = responses.filter((r) => r.status === 200);
    const pending = responses.filter((r) => r.status === 409 && r.body.error.code === 'feedback_pending');
    expect(answered.length + pending.length).toBe(30);
    const first = answered.filter((r) => r.body.idempotent_replay === false);
    expect(first).toHaveLength(1);
    expect(new Set(answered.map((r) => r.body.proposal_id))).toEqual(new Set([first[0].body.proposal_id]));
    expect(await submittedFor(h, message_id)).toBe(1);
    expect(await proposalsFor(h, message_id)).toEqual([first[0].body.proposal_id]);
  });

  it("a submission that loses the reservation race adopts the winner's ids: one feedback, one proposal", async () => {
    const seeded = await h.seedMessage();
    const { message_id } = seeded;
    const F1 = h.key();
    const f1 = keyIdentity(h, message_id, { external_feedback_id: F1 });
    const claims = h.t.app.get(FeedbackClaims);
    const original = claims.resolve.bind(claims);
    let winner: Awaited<ReturnType<typeof appendReservation>> | null = null;
    // Another process reserves the feedback right after this one resolved it (as unreserved).
    const spy = jest.spyOn(claims, 'resolve').mockImplementationOnce(async (...args) => {
      const resolved = await original(...args);
      winner = await appendReservation(h, seeded, F1, f1.digest);
      return resolved;
    });
    try {
      const res = await h.feedback(message_id, { ...CORRECTED, external_feedback_id: F1 });
      expect(res.status).toBe(200);
      expect(winner).not.toBeNull();
      const { feedback_id, proposal_id } = winner!;
      expect(res.body).toMatchObject({ feedback_id, proposal_id });
      expect(await proposalsFor(h, message_id)).toEqual([proposal_id]);
    } finally {
      spy.mockRestore();
    }
    expect(await submittedFor(h, message_id)).toBe(1);
  });

  it('a claim left by a crashed submission (never reserved) is moved to the feedback its other key names', async () => {
    const { message_id } = await h.seedMessage();
    const [F1, K1] = [h.key(), h.key()];
    const k1 = keyIdentity(h, message_id, { idempotency_key: K1 });
    // K1 alone claimed its key, then crashed before reserving the feedback.
    await appendClaim(h, message_id, 'idempotency_key', K1, k1.digest);
    const first = await h.feedback(message_id, { ...CORRECTED, external_feedback_id: F1 });
    const both = await h.feedback(message_id, {
      ...CORRECTED,
      external_feedback_id: F1,
      idempotency_key: K1,
    });
    expect(both.body).toEqual({ ...first.body, idempotent_replay: true });
    const moved = await h.t.stores.eventStore.readStream(streams.replyFeedback(k1.digest));
    expect(moved.map((e) => e.type)).toEqual(['ReplyFeedbackMoved']);
    const alone = await h.feedback(message_id, { ...CORRECTED, idempotency_key: K1 });
    expect(alone.body).toEqual({ ...first.body, idempotent_replay: true });
    expect(await submittedFor(h, message_id)).toBe(1);
    expect(await proposalsFor(h, message_id)).toEqual([first.body.proposal_id]);
  });

  it('a crash after the reservation resumes it: the reserved ids and proposal id, one proposal', async () => {
    const seeded = await h.seedMessage();
    const { message_id } = seeded;
    const F1 = h.key();
    const f1 = keyIdentity(h, message_id, { external_feedback_id: F1 });
    await appendClaim(h, message_id, 'external_feedback_id', F1, f1.digest);
    const reserved = await appendReservation(h, seeded, F1, f1.digest);
    const res = await h.feedback(message_id, { ...CORRECTED, external_feedback_id: F1 });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      feedback_id: reserved.feedback_id,
      response_review_id: reserved.response_review_id,
      proposal_id: reserved.proposal_id,
      idempotent_replay: false,
    });
    expect(await proposalsFor(h, message_id)).toEqual([reserved.proposal_id]);
    const again = await h.feedback(message_id, { ...CORRECTED, external_feedback_id: F1 });
    expect(again.body).toEqual({ ...res.body, idempotent_replay: true });
    expect(await submittedFor(h, message_id)).toBe(1);
  });
});

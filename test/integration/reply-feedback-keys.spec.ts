import { QueryBus } from '@nestjs/cqrs';
import { FeedbackClaims } from '../../src/commands/replies/feedback-claims';
import {
  feedbackFingerprint,
  feedbackIdentity,
  legacyFeedbackFingerprint,
} from '../../src/commands/replies/feedback-rules';
import { systemContext } from '../../src/commands/shared/command-context';
import { StreamCommandExecutor } from '../../src/commands/shared/stream-command-executor';
import { IdGenerator } from '../../src/common/id-generator';
import { streams } from '../../src/events/domain-event';
import { ListProposalsQuery } from '../../src/queries/memory/list-proposals.query';
import { useFeedbackHarness } from '../support/feedback-harness';

/**
 * Feedback identity (spec §4.7 rule 3): external_feedback_id (F) and idempotency_key (K) EACH identify a feedback
 * on one assistant message; a match on either is that feedback (same content: a replay; other content: 409 naming
 * the key that matched); one feedback and at most one correction proposal per identity.
 */
describe('one feedback per identity: the key matrix (spec §4.7 rule 3)', () => {
  const h = useFeedbackHarness();
  const corrected = { outcome: 'corrected', suggested_answer: 'We open at 10 on Saturdays.' };
  const context = systemContext('test');

  async function proposalsFor(message_id: number): Promise<number[]> {
    const all = await h.t.app
      .get(QueryBus)
      .execute<ListProposalsQuery, Array<{ proposal_id: number; correction: { message_id: number } | null }>>(
        new ListProposalsQuery(h.org, null),
      );
    return all.filter((p) => p.correction?.message_id === message_id).map((p) => p.proposal_id);
  }
  async function submittedFor(message_id: number): Promise<number> {
    const events = await h.t.stores.eventStore.readAll();
    return events.filter((e) => e.type === 'ReplyFeedbackSubmitted' && e.data.message_id === message_id)
      .length;
  }
  const identity = (message_id: number, keys: { external_feedback_id?: string; idempotency_key?: string }) =>
    feedbackIdentity({ organization_id: h.org, connector_id: h.connectorId, message_id, ...keys });

  it('F1+K1, then K1 alone, then F1 alone: one feedback, one proposal, replays append nothing', async () => {
    const { message_id } = await h.seedMessage();
    const [F1, K1] = [h.key(), h.key()];
    const first = await h.feedback(message_id, {
      ...corrected,
      external_feedback_id: F1,
      idempotency_key: K1,
    });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ outcome: 'corrected', idempotent_replay: false });
    const before = await h.head();
    for (const keys of [{ idempotency_key: K1 }, { external_feedback_id: F1 }]) {
      const again = await h.feedback(message_id, { ...corrected, ...keys });
      expect([again.status, again.body]).toEqual([200, { ...first.body, idempotent_replay: true }]);
    }
    expect(await h.head()).toBe(before);
    expect(await proposalsFor(message_id)).toEqual([first.body.proposal_id]);
    expect(await submittedFor(message_id)).toBe(1);
  });

  it('F1+K2 after F1+K1 is the same feedback, and K2 alone then finds it too', async () => {
    const { message_id } = await h.seedMessage();
    const [F1, K1, K2] = [h.key(), h.key(), h.key()];
    const first = await h.feedback(message_id, {
      ...corrected,
      external_feedback_id: F1,
      idempotency_key: K1,
    });
    const second = await h.feedback(message_id, {
      ...corrected,
      external_feedback_id: F1,
      idempotency_key: K2,
    });
    expect(second.body).toEqual({ ...first.body, idempotent_replay: true });
    const third = await h.feedback(message_id, { ...corrected, idempotency_key: K2 });
    expect(third.body).toEqual({ ...first.body, idempotent_replay: true });
    expect(await proposalsFor(message_id)).toEqual([first.body.proposal_id]);
  });

  it('K1 alone, then F1+K1, then F1 alone: one feedback', async () => {
    const { message_id } = await h.seedMessage();
    const [F1, K1] = [h.key(), h.key()];
    const first = await h.feedback(message_id, { ...corrected, idempotency_key: K1 });
    for (const keys of [{ external_feedback_id: F1, idempotency_key: K1 }, { external_feedback_id: F1 }]) {
      const again = await h.feedback(message_id, { ...corrected, ...keys });
      expect(again.body).toEqual({ ...first.body, idempotent_replay: true });
    }
    expect(await submittedFor(message_id)).toBe(1);
  });

  it('K1+F2 after F1+K1 is 409 naming idempotency_key (K1 belongs to F1), nothing recorded', async () => {
    const { message_id } = await h.seedMessage();
    const [F1, K1, F2] = [h.key(), h.key(), h.key()];
    await h.feedback(message_id, { ...corrected, external_feedback_id: F1, idempotency_key: K1 });
    const before = await h.head();
    const res = await h.feedback(message_id, { ...corrected, external_feedback_id: F2, idempotency_key: K1 });
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
    await h.feedback(message_id, { ...corrected, external_feedback_id: F1, idempotency_key: K1 });
    await h.feedback(message_id, { rating: 'up', external_feedback_id: F3, idempotency_key: K3 });
    const before = await h.head();
    const res = await h.feedback(message_id, { ...corrected, external_feedback_id: F1, idempotency_key: K3 });
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
    await h.feedback(message_id, { ...corrected, external_feedback_id: F1, idempotency_key: K1 });
    const before = await h.head();
    const changed = { ...corrected, suggested_answer: 'We open at 11.' };
    for (const [keys, field] of [
      [{ idempotency_key: K1 }, 'idempotency_key'],
      [{ external_feedback_id: F1 }, 'external_feedback_id'],
    ] as const) {
      const res = await h.feedback(message_id, { ...changed, ...keys });
      expect(res.status).toBe(409);
      expect(res.body.error).toMatchObject({ code: 'feedback_key_reused', details: [{ field }] });
    }
    expect(await h.head()).toBe(before);
    expect(await submittedFor(message_id)).toBe(1);
  });

  it('30 concurrent submissions mixing F1 with K1, K2 and no key: one feedback, one proposal', async () => {
    const { message_id } = await h.seedMessage();
    const [F1, K1, K2] = [h.key(), h.key(), h.key()];
    const variants = [{ idempotency_key: K1 }, { idempotency_key: K2 }, {}];
    const responses = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        h.feedback(message_id, { ...corrected, external_feedback_id: F1, ...variants[i % 3] }),
      ),
    );
    const answered = responses.filter((r) => r.status === 200);
    const pending = responses.filter((r) => r.status === 409 && r.body.error.code === 'feedback_pending');
    expect(answered.length + pending.length).toBe(30);
    const first = answered.filter((r) => r.body.idempotent_replay === false);
    expect(first).toHaveLength(1);
    expect(new Set(answered.map((r) => r.body.proposal_id))).toEqual(new Set([first[0].body.proposal_id]));
    expect(await submittedFor(message_id)).toBe(1);
    expect(await proposalsFor(message_id)).toEqual([first[0].body.proposal_id]);
  });

  it("a submission that loses the reservation race adopts the winner's ids: one feedback, one proposal", async () => {
    const { message_id, reply_id, conversation_id } = await h.seedMessage();
    const F1 = h.key();
    const f1 = identity(message_id, { external_feedback_id: F1 });
    const ids = h.t.app.get(IdGenerator);
    const claims = h.t.app.get(FeedbackClaims);
    const winner = {
      feedback_id: await ids.next('reply_feedback'),
      response_review_id: await ids.next('response_review'),
      proposal_id: await ids.next('memory_proposal'),
      memory_source_id: await ids.next('memory_source'),
    };
    const content = {
      outcome: 'corrected' as const,
      rating: 'down' as const,
      feedback_kind: null,
      feedback_issue: null,
      suggested_answer: corrected.suggested_answer,
      note: null,
    };
    const original = claims.resolve.bind(claims);
    // Another process reserves the feedback right after this one resolved it (as unreserved).
    const spy = jest.spyOn(claims, 'resolve').mockImplementationOnce(async (...args) => {
      const resolved = await original(...args);
      await h.t.app.get(StreamCommandExecutor).append(
        streams.replyFeedback(f1.digest),
        [
          {
            type: 'ReplyFeedbackReserved',
            data: {
              ...winner,
              ...content,
              organization_id: h.org,
              connector_id: h.connectorId,
              message_id,
              reply_id,
              conversation_id,
              retry_key_kind: 'external_feedback_id',
              retry_key: F1,
              external_feedback_id: F1,
              fingerprint: feedbackFingerprint(content),
              reserved_at: new Date().toISOString(),
            },
          },
        ],
        'no_stream',
        context,
        h.org,
      );
      return resolved;
    });
    try {
      const res = await h.feedback(message_id, { ...corrected, external_feedback_id: F1 });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ feedback_id: winner.feedback_id, proposal_id: winner.proposal_id });
    } finally {
      spy.mockRestore();
    }
    expect(await proposalsFor(message_id)).toEqual([winner.proposal_id]);
    expect(await submittedFor(message_id)).toBe(1);
  });

  it('a claim left by a crashed submission (never reserved) is moved to the feedback its other key names', async () => {
    const { message_id } = await h.seedMessage();
    const [F1, K1] = [h.key(), h.key()];
    const k1 = identity(message_id, { idempotency_key: K1 });
    // K1 alone claimed its key, then crashed before reserving the feedback.
    await h.t.app.get(StreamCommandExecutor).append(
      streams.feedbackClaim(k1.digest),
      [
        {
          type: 'FeedbackIdentityClaimed',
          data: {
            organization_id: h.org,
            connector_id: h.connectorId,
            message_id,
            key_kind: 'idempotency_key',
            key: K1,
            feedback_digest: k1.digest,
            claimed_at: new Date().toISOString(),
          },
        },
      ],
      'no_stream',
      context,
      h.org,
    );
    const first = await h.feedback(message_id, { ...corrected, external_feedback_id: F1 });
    const both = await h.feedback(message_id, {
      ...corrected,
      external_feedback_id: F1,
      idempotency_key: K1,
    });
    expect(both.body).toEqual({ ...first.body, idempotent_replay: true });
    const moved = await h.t.stores.eventStore.readStream(streams.replyFeedback(k1.digest));
    expect(moved.map((e) => e.type)).toEqual(['ReplyFeedbackMoved']);
    const alone = await h.feedback(message_id, { ...corrected, idempotency_key: K1 });
    expect(alone.body).toEqual({ ...first.body, idempotent_replay: true });
    expect(await submittedFor(message_id)).toBe(1);
    expect(await proposalsFor(message_id)).toEqual([first.body.proposal_id]);
  });

  it('a crash after the reservation resumes it: the reserved ids and proposal id, one proposal', async () => {
    const { message_id, reply_id, conversation_id } = await h.seedMessage();
    const F1 = h.key();
    const f1 = identity(message_id, { external_feedback_id: F1 });
    const ids = h.t.app.get(IdGenerator);
    const executor = h.t.app.get(StreamCommandExecutor);
    const reserved = {
      feedback_id: await ids.next('reply_feedback'),
      response_review_id: await ids.next('response_review'),
      proposal_id: await ids.next('memory_proposal'),
      memory_source_id: await ids.next('memory_source'),
    };
    const content = {
      outcome: 'corrected' as const,
      rating: 'down' as const,
      feedback_kind: null,
      feedback_issue: null,
      suggested_answer: corrected.suggested_answer,
      note: null,
    };
    await executor.append(
      streams.feedbackClaim(f1.digest),
      [
        {
          type: 'FeedbackIdentityClaimed',
          data: {
            organization_id: h.org,
            connector_id: h.connectorId,
            message_id,
            key_kind: 'external_feedback_id',
            key: F1,
            feedback_digest: f1.digest,
            claimed_at: new Date().toISOString(),
          },
        },
      ],
      'no_stream',
      context,
      h.org,
    );
    await executor.append(
      streams.replyFeedback(f1.digest),
      [
        {
          type: 'ReplyFeedbackReserved',
          data: {
            ...reserved,
            ...content,
            organization_id: h.org,
            connector_id: h.connectorId,
            message_id,
            reply_id,
            conversation_id,
            retry_key_kind: 'external_feedback_id',
            retry_key: F1,
            external_feedback_id: F1,
            fingerprint: feedbackFingerprint(content),
            reserved_at: new Date().toISOString(),
          },
        },
      ],
      'no_stream',
      context,
      h.org,
    );
    const res = await h.feedback(message_id, { ...corrected, external_feedback_id: F1 });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      feedback_id: reserved.feedback_id,
      response_review_id: reserved.response_review_id,
      proposal_id: reserved.proposal_id,
      idempotent_replay: false,
    });
    expect(await proposalsFor(message_id)).toEqual([reserved.proposal_id]);
    const again = await h.feedback(message_id, { ...corrected, external_feedback_id: F1 });
    expect(again.body).toEqual({ ...res.body, idempotent_replay: true });
    expect(await submittedFor(message_id)).toBe(1);
  });

  it('feedback recorded before this version (no claims, keys in the fingerprint) still replays', async () => {
    const { message_id, reply_id, conversation_id } = await h.seedMessage();
    const [F1, K1] = [h.key(), h.key()];
    const f1 = identity(message_id, { external_feedback_id: F1 });
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
    expect(await submittedFor(message_id)).toBe(1);
  });
});

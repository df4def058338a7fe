import { QueryBus } from '@nestjs/cqrs';
import { feedbackIdentity } from '../../src/commands/replies/feedback-rules';
import { streams } from '../../src/events/domain-event';
import { ListProposalsQuery } from '../../src/queries/memory/list-proposals.query';
import { REPLIES, useFeedbackHarness } from '../support/feedback-harness';
import { http } from '../support/test-app';

describe('reply feedback: retry identity, messages, authorization (spec §4.7, §2.9)', () => {
  const h = useFeedbackHarness();

  describe('retry identity', () => {
    it('a retry with the same external_feedback_id replays: same ids, idempotent_replay true, nothing appended', async () => {
      const { message_id } = await h.seedMessage();
      const body = { rating: 'down', suggested_answer: 'We open at 10.', external_feedback_id: h.key() };
      const first = await h.feedback(message_id, body);
      expect(first.status).toBe(200);
      const before = await h.head();
      const again = await h.feedback(message_id, body);
      expect(again.status).toBe(200);
      expect(again.body).toEqual({ ...first.body, idempotent_replay: true });
      // The same submission expressed through the outcome instead of the rating is the same content.
      const same = await h.feedback(message_id, { ...body, rating: undefined, outcome: 'corrected' });
      expect(same.body).toEqual({ ...first.body, idempotent_replay: true });
      expect(await h.head()).toBe(before);
      const proposals = await h.t.app
        .get(QueryBus)
        .execute<ListProposalsQuery, Array<{ content: string }>>(new ListProposalsQuery(h.org, null));
      expect(proposals.filter((p) => p.content === 'We open at 10.')).toHaveLength(1);
    });

    it('idempotency_key is an alternative identity; a match on either key is the same feedback', async () => {
      const { message_id } = await h.seedMessage();
      const byKey = { rating: 'up', idempotency_key: h.key() };
      const first = await h.feedback(message_id, byKey);
      expect((await h.feedback(message_id, byKey)).body).toEqual({ ...first.body, idempotent_replay: true });
      const both = { rating: 'up', external_feedback_id: h.key(), idempotency_key: byKey.idempotency_key };
      expect((await h.feedback(message_id, both)).body).toEqual({ ...first.body, idempotent_replay: true });
      const other = await h.feedback(message_id, { rating: 'up', external_feedback_id: h.key() });
      expect(other.body.idempotent_replay).toBe(false);
      expect(other.body.feedback_id).not.toBe(first.body.feedback_id);
    });

    it('the same key with different content is a 409 feedback_key_reused, nothing appended', async () => {
      const { message_id } = await h.seedMessage();
      const id = h.key();
      const first = await h.feedback(message_id, { rating: 'up', external_feedback_id: id });
      expect(first.status).toBe(200);
      const before = await h.head();
      for (const changed of [
        { rating: 'down', external_feedback_id: id },
        { rating: 'up', note: 'great', external_feedback_id: id },
      ]) {
        const res = await h.feedback(message_id, changed);
        expect(res.status).toBe(409);
        expect(res.body.error.code).toBe('feedback_key_reused');
      }
      expect(await h.head()).toBe(before);
    });

    it('a key is scoped to the message and the connector: elsewhere it is a new submission', async () => {
      const one = await h.seedMessage();
      const two = await h.seedMessage();
      const id = h.key();
      const a = await h.feedback(one.message_id, { rating: 'up', external_feedback_id: id });
      const b = await h.feedback(two.message_id, { rating: 'down', external_feedback_id: id });
      expect(b.status).toBe(200);
      expect(b.body.idempotent_replay).toBe(false);
      expect(b.body.feedback_id).not.toBe(a.body.feedback_id);
    });

    it('concurrent duplicates record one submission; every answer carries the same ids', async () => {
      const { message_id } = await h.seedMessage();
      const body = { rating: 'up', external_feedback_id: h.key() };
      const results = await Promise.all([1, 2, 3].map(() => h.feedback(message_id, body)));
      expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
      expect(new Set(results.map((r) => r.body.feedback_id)).size).toBe(1);
      const identity = feedbackIdentity({
        organization_id: h.org,
        connector_id: h.connectorId,
        message_id,
        external_feedback_id: body.external_feedback_id,
      });
      const stored = await h.t.stores.eventStore.readStream(streams.replyFeedback(identity.digest));
      expect(stored.map((e) => e.type)).toEqual(['ReplyFeedbackReserved', 'ReplyFeedbackSubmitted']);
    });

    it('refuses a request without external_feedback_id or idempotency_key (422 naming both)', async () => {
      const { message_id } = await h.seedMessage();
      const res = await h.feedback(message_id, { rating: 'up' });
      expect(res.status).toBe(422);
      expect(res.body.error.details.map((d: { field: string }) => d.field)).toEqual([
        'external_feedback_id',
        'idempotency_key',
      ]);
    });
  });

  describe('which messages', () => {
    it("another organization's or another connector's message is 404 message_not_found, like an unknown one", async () => {
      const { message_id } = await h.seedMessage();
      const unknown = await h.feedback(999_999_999, { rating: 'up', external_feedback_id: h.key() });
      expect(unknown.status).toBe(404);
      expect(unknown.body.error.code).toBe('message_not_found');
      for (const as of [h.stranger, h.sibling]) {
        const before = await h.head();
        const res = await h.feedback(message_id, { rating: 'up', external_feedback_id: h.key() }, as);
        expect(res.status).toBe(404);
        expect(res.body.error.code).toBe('message_not_found');
        expect(await h.head()).toBe(before);
      }
    });

    it('a user message (not an assistant reply) is 404', async () => {
      const { user_message_id } = await h.seedMessage();
      const res = await h.feedback(user_message_id, { rating: 'up', external_feedback_id: h.key() });
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('message_not_found');
    });

    it.each(['abc', '0', '-1', '1.5', '12345678901234567890'])(
      'a message_id that is not a positive integer (%s) is 404',
      async (id) => {
        const res = await h.feedback(id, { rating: 'up', external_feedback_id: h.key() });
        expect(res.status).toBe(404);
        expect(res.body.error.code).toBe('message_not_found');
      },
    );
  });

  describe('authorization and validation', () => {
    it('needs a token (401) and the assistant_feedback capability (403)', async () => {
      const { message_id } = await h.seedMessage();
      const anonymous = await http(h.t.baseUrl, 'POST', `${REPLIES}/${message_id}/feedback`, {
        body: { rating: 'up', external_feedback_id: h.key() },
      });
      expect(anonymous.status).toBe(401);
      const res = await h.feedback(message_id, { rating: 'up', external_feedback_id: h.key() }, h.noFeedback);
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('missing_capability');
    });

    it.each([
      ['outcome', { outcome: 'great' }],
      ['rating', { rating: 'sideways' }],
      ['feedback_kind', { rating: 'up', feedback_kind: 'Not-Allowed' }],
      ['feedback_kind', { rating: 'up', feedback_kind: 'a'.repeat(65) }],
      ['feedback_issue', { rating: 'up', feedback_issue: '' }],
      ['suggested_answer', { rating: 'down', suggested_answer: 'a'.repeat(20_001) }],
      ['note', { rating: 'up', note: 'a'.repeat(2_001) }],
      ['external_feedback_id', { rating: 'up', external_feedback_id: 'a'.repeat(201) }],
      ['idempotency_key', { rating: 'up', idempotency_key: '   ' }],
      ['rating', { rating: null }],
      ['surprise', { rating: 'up', surprise: true }],
    ])('out-of-bounds %s is 422 naming it', async (field, body) => {
      const { message_id } = await h.seedMessage();
      const res = await h.feedback(message_id, { external_feedback_id: h.key(), ...body });
      expect(res.status).toBe(422);
      expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
    });

    it('accepts the documented bounds', async () => {
      const { message_id } = await h.seedMessage();
      const res = await h.feedback(message_id, {
        rating: 'down',
        feedback_kind: 'a'.repeat(64),
        feedback_issue: 'issue_2',
        suggested_answer: 'Open daily. '.repeat(1_666),
        note: 'n'.repeat(2_000),
        external_feedback_id: 'x'.repeat(200),
        idempotency_key: 'k'.repeat(200),
      });
      expect(res.status).toBe(200);
      expect(res.body.outcome).toBe('corrected');
    });
  });
});

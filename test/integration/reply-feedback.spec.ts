import { QueryBus } from '@nestjs/cqrs';
import { feedbackIdentity } from '../../src/commands/replies/feedback-rules';
import { streams } from '../../src/events/domain-event';
import { MEMORY_ITEMS } from '../../src/projections/memory.projection';
import { ListProposalsQuery } from '../../src/queries/memory/list-proposals.query';
import { useFeedbackHarness } from '../support/feedback-harness';
import { MEMORY } from '../support/memory-fixtures';
import { http } from '../support/test-app';

describe('reply feedback: outcome, rating and corrections (spec §4.7, §2.9)', () => {
  const h = useFeedbackHarness();
  let words = 0;

  describe('outcome and rating', () => {
    it.each([
      [{ rating: 'up' }, 'accepted', 'up'],
      [{ outcome: 'accepted' }, 'accepted', 'up'],
      [{ outcome: 'accepted', rating: 'up' }, 'accepted', 'up'],
      [{ rating: 'down' }, 'rejected', 'down'],
      [{ rating: 'down', suggested_answer: '   ' }, 'rejected', 'down'],
      [{ outcome: 'rejected' }, 'rejected', 'down'],
      [{ outcome: 'rejected', rating: 'down', note: 'too vague' }, 'rejected', 'down'],
      [{ rating: 'none' }, null, 'none'],
    ])('%j → outcome %s, rating %s (§2.9, no proposal)', async (body, outcome, rating) => {
      const { message_id } = await h.seedMessage();
      const res = await h.feedback(message_id, { ...body, external_feedback_id: h.key() });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        ok: true,
        outcome,
        rating,
        feedback_id: expect.any(Number),
        response_review_id: expect.any(Number),
        idempotent_replay: false,
      });
    });

    it('records one ReplyFeedbackSubmitted on the retry identity stream, naming message, reply and conversation', async () => {
      const seeded = await h.seedMessage();
      const body = {
        rating: 'down',
        feedback_kind: 'answer_quality',
        feedback_issue: 'too_vague',
        note: 'Please be specific.',
        idempotency_key: h.key(),
      };
      const res = await h.feedback(seeded.message_id, body);
      const identity = feedbackIdentity({
        organization_id: h.org,
        connector_id: h.connectorId,
        message_id: seeded.message_id,
        idempotency_key: body.idempotency_key,
      });
      const stored = await h.t.stores.eventStore.readStream(streams.replyFeedback(identity.digest));
      // Reserved (ids, proposal id) first, then recorded.
      expect(stored.map((e) => e.type)).toEqual(['ReplyFeedbackReserved', 'ReplyFeedbackSubmitted']);
      const events = stored.slice(1);
      expect(events[0].metadata).toMatchObject({
        organization_id: String(h.org),
        actor: `connector:${h.connectorId}`,
      });
      expect(events[0].data).toMatchObject({
        feedback_id: res.body.feedback_id,
        response_review_id: res.body.response_review_id,
        proposal_id: null,
        organization_id: h.org,
        connector_id: h.connectorId,
        message_id: seeded.message_id,
        reply_id: seeded.reply_id,
        conversation_id: seeded.conversation_id,
        retry_key_kind: 'idempotency_key',
        retry_key: body.idempotency_key,
        outcome: 'rejected',
        rating: 'down',
        feedback_kind: 'answer_quality',
        feedback_issue: 'too_vague',
        suggested_answer: null,
        note: 'Please be specific.',
      });
    });

    it.each([
      [{ outcome: 'accepted', rating: 'down' }],
      [{ outcome: 'rejected', rating: 'up' }],
      [{ outcome: 'corrected', rating: 'none', suggested_answer: 'x' }],
    ])('refuses a disagreeing outcome and rating %j: 422 naming both, nothing stored', async (body) => {
      const { message_id } = await h.seedMessage();
      const before = await h.head();
      const res = await h.feedback(message_id, { ...body, external_feedback_id: h.key() });
      expect(res.status).toBe(422);
      expect(res.body.ok).toBe(false);
      expect(res.body.error.code).toBe('validation_failed');
      expect(res.body.error.details.map((d: { field: string }) => d.field)).toEqual(['outcome', 'rating']);
      expect(await h.head()).toBe(before);
    });

    it('refuses corrected without a (non-blank) suggested_answer: 422 naming suggested_answer', async () => {
      const { message_id } = await h.seedMessage();
      const before = await h.head();
      for (const body of [
        { outcome: 'corrected' },
        { outcome: 'corrected', rating: 'down', suggested_answer: ' ' },
      ]) {
        const res = await h.feedback(message_id, { ...body, external_feedback_id: h.key() });
        expect(res.status).toBe(422);
        expect(res.body.error.details.map((d: { field: string }) => d.field)).toEqual(['suggested_answer']);
      }
      expect(await h.head()).toBe(before);
    });

    it('refuses a request with neither outcome nor rating (422)', async () => {
      const { message_id } = await h.seedMessage();
      const res = await h.feedback(message_id, { note: 'hm', external_feedback_id: h.key() });
      expect(res.status).toBe(422);
      expect(res.body.error.details.map((d: { field: string }) => d.field)).toEqual(['outcome', 'rating']);
    });
  });

  describe('corrections', () => {
    it.each([[{ rating: 'down' }], [{ outcome: 'corrected' }], [{ outcome: 'corrected', rating: 'down' }]])(
      '%j with a suggested answer creates a pending proposal, never active memory',
      async (choice) => {
        const seeded = await h.seedMessage();
        const word = `quokka${++words}`;
        const answer = `We open at 9 on Saturdays (${word}).`;
        const res = await h.feedback(seeded.message_id, {
          ...choice,
          suggested_answer: answer,
          feedback_kind: 'answer_correction',
          feedback_issue: 'not_factually_correct',
          external_feedback_id: h.key(),
        });
        expect(res.status).toBe(200);
        expect(res.body).toEqual({
          ok: true,
          outcome: 'corrected',
          rating: 'down',
          feedback_id: expect.any(Number),
          response_review_id: expect.any(Number),
          proposal_id: expect.any(Number),
          idempotent_replay: false,
        });
        const proposals = await h.t.app
          .get(QueryBus)
          .execute<ListProposalsQuery, Array<Record<string, unknown>>>(new ListProposalsQuery(h.org, null));
        const proposal = proposals.find((p) => p.proposal_id === res.body.proposal_id);
        expect(proposal).toMatchObject({
          organization_id: h.org,
          status: 'captured',
          proposed_type: 'correction',
          title: `Correction to reply ${seeded.reply_id}`,
          content: answer,
          memory_item_id: null,
          proposed_policy: { review_required: true, customer_safe_candidate: false },
        });
        // Not memory: no item holds it, and search does not find it.
        const items = await h.t.stores.readStore.find(MEMORY_ITEMS, { filter: { organization_id: h.org } });
        expect(JSON.stringify(items.items)).not.toContain(word);
        const search = await http(h.t.baseUrl, 'POST', `${MEMORY}/search`, {
          token: h.searcher,
          body: { query: word },
        });
        expect(search.status).toBe(200);
        expect(search.body.results).toEqual([]);
      },
    );

    it('unsafe content in suggested_answer or note is refused (422 unsafe_content), nothing stored', async () => {
      const { message_id } = await h.seedMessage();
      const secret = 'AKIAZ7QWERTYUIOPASDF';
      for (const body of [
        {
          rating: 'down',
          suggested_answer: `use key ${secret} secret wJalrXUtnFEMI/K7MDENG/bPxRfiCYzEXAMPLEKEY0`,
        },
        { rating: 'up', note: `aws key ${secret} and secret wJalrXUtnFEMI/K7MDENG/bPxRfiCYzEXAMPLEKEY0` },
      ]) {
        const before = await h.head();
        const res = await h.feedback(message_id, { ...body, external_feedback_id: h.key() });
        expect(res.status).toBe(422);
        expect(res.body.error.code).toBe('unsafe_content');
        expect(res.body.unsafe_flags[0].field).toBe(body.note ? 'note' : 'suggested_answer');
        expect(JSON.stringify(res.body)).not.toContain(secret);
        expect(await h.head()).toBe(before);
      }
    });
  });
});

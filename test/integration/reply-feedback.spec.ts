import { Module, type DynamicModule } from '@nestjs/common';
import { CqrsModule, QueryBus } from '@nestjs/cqrs';
import { CreateChatbotCommand } from '../../src/commands/chatbots/create-chatbot.command';
import { CommandsModule } from '../../src/commands/commands.module';
import { conversationDecider } from '../../src/commands/replies/conversation.decider';
import { feedbackIdentity } from '../../src/commands/replies/feedback-rules';
import { SubmitFeedbackHandler } from '../../src/commands/replies/submit-feedback.handler';
import { operatorContext, systemContext } from '../../src/commands/shared/command-context';
import { StreamCommandExecutor } from '../../src/commands/shared/stream-command-executor';
import { IdGenerator } from '../../src/common/id-generator';
import { streams } from '../../src/events/domain-event';
import { HttpModule } from '../../src/http/http.module';
import { FeedbackController } from '../../src/http/replies/feedback.controller';
import { ALL_PROJECTIONS } from '../../src/projections/all-projections';
import { conversationsProjection } from '../../src/projections/conversations.projection';
import { MEMORY_ITEMS } from '../../src/projections/memory.projection';
import { ProjectionRunner } from '../../src/projections/projection-runner';
import { ListProposalsQuery } from '../../src/queries/memory/list-proposals.query';
import { createConnector, createOrganization } from '../support/fixtures';
import { MEMORY } from '../support/memory-fixtures';
import { http, startTestApp, type TestApp } from '../support/test-app';

/**
 * Mounts the feedback endpoint, handler and projection only where the application does not already: the test
 * passes both before and after they are registered in HttpModule, CommandsModule and ALL_PROJECTIONS.
 */
const listed = (module: object, key: 'controllers' | 'providers', item: object): boolean =>
  ((Reflect.getMetadata(key, module) as unknown[] | undefined) ?? []).includes(item);

@Module({})
class FeedbackTestModule {}

function feedbackModules(): DynamicModule[] {
  const controllers = listed(HttpModule, 'controllers', FeedbackController) ? [] : [FeedbackController];
  const providers = listed(CommandsModule, 'providers', SubmitFeedbackHandler) ? [] : [SubmitFeedbackHandler];
  if (controllers.length === 0 && providers.length === 0) return [];
  return [
    {
      module: FeedbackTestModule,
      imports: [CqrsModule, HttpModule, CommandsModule],
      controllers,
      providers,
    },
  ];
}

const REPLIES = '/app/api/tool-connectors/v1/assistant/replies';
const FEEDBACK_CAPS = ['assistant_reply', 'assistant_feedback'];

type Seeded = { conversation_id: number; reply_id: number; user_message_id: number; message_id: number };

describe('reply feedback (spec §4.7, §2.9)', () => {
  let t: TestApp;
  let extraRunner: ProjectionRunner | null = null;
  let org: number;
  let connectorId: number;
  let token: string; // assistant_reply + assistant_feedback
  let sibling: string; // another connector of the same organization, same capabilities
  let stranger: string; // a connector of another organization, same capabilities
  let noFeedback: string; // assistant_reply only
  let searcher: string; // memory_search, to check that nothing became memory
  let chatbotId: number;

  beforeAll(async () => {
    t = await startTestApp({}, undefined, feedbackModules());
    if (!ALL_PROJECTIONS.includes(conversationsProjection)) {
      const { eventStore, readStore, searchIndex } = t.stores;
      extraRunner = new ProjectionRunner(eventStore, readStore, searchIndex, [conversationsProjection], {
        owner: `feedback-test-${process.pid}`,
      });
      await extraRunner.prepare();
      extraRunner.start();
    }
    org = (await createOrganization(t.commands, 'Feedback')).organization_id;
    const mine = await createConnector(t.commands, org, FEEDBACK_CAPS);
    connectorId = mine.connector_id;
    token = mine.token;
    sibling = (await createConnector(t.commands, org, FEEDBACK_CAPS)).token;
    noFeedback = (await createConnector(t.commands, org, ['assistant_reply'])).token;
    searcher = (await createConnector(t.commands, org, ['memory_search'])).token;
    const otherOrg = (await createOrganization(t.commands, 'Elsewhere')).organization_id;
    stranger = (await createConnector(t.commands, otherOrg, FEEDBACK_CAPS)).token;
    chatbotId = (
      await t.commands.execute<CreateChatbotCommand, { chatbot_id: number }>(
        new CreateChatbotCommand(org, 'Bot', 'example.com', operatorContext('test')),
      )
    ).chatbot_id;
  });
  afterAll(async () => {
    await extraRunner?.stop();
    await t.close();
  });

  /** Records a conversation with one user and one assistant message, as the reply handler does. */
  async function seedMessage(organization_id = org, connector_id = connectorId): Promise<Seeded> {
    const executor = t.app.get(StreamCommandExecutor);
    const ids = t.app.get(IdGenerator);
    const conversation_id = await ids.next('conversation');
    const reply_id = await ids.next('reply');
    const user_message_id = await ids.next('message');
    const message_id = await ids.next('message');
    const stream = streams.conversation(conversation_id);
    const context = systemContext('test');
    const options = { organizationId: organization_id };
    const now_ms = Date.now();
    await executor.execute(
      stream,
      conversationDecider,
      {
        type: 'Start',
        now_ms,
        conversation_id,
        organization_id,
        connector_id,
        chatbot_id: chatbotId,
        external_thread_id: `thread-${conversation_id}`,
      },
      context,
      options,
    );
    const texts = { user: 'When are you open?', assistant: 'We are open 9 to 5.' };
    await executor.execute(
      stream,
      conversationDecider,
      {
        type: 'RecordUserMessage',
        message_id: user_message_id,
        reply_id,
        text: texts.user,
        external_message_id: null,
        now_ms,
      },
      context,
      options,
    );
    const recorded = await executor.execute(
      stream,
      conversationDecider,
      { type: 'RecordAssistantMessage', message_id, reply_id, text: texts.assistant, now_ms },
      context,
      options,
    );
    if (extraRunner && recorded.position !== null) {
      expect(await extraRunner.waitFor(recorded.position, 10_000, [conversationsProjection.name])).toBe(true);
    }
    return { conversation_id, reply_id, user_message_id, message_id };
  }

  const feedback = (messageId: number | string, body: unknown, as = token) =>
    http(t.baseUrl, 'POST', `${REPLIES}/${messageId}/feedback`, { token: as, body });
  const head = () => t.stores.eventStore.headPosition();
  let keys = 0;
  const key = () => `fb-${++keys}`;

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
      const { message_id } = await seedMessage();
      const res = await feedback(message_id, { ...body, external_feedback_id: key() });
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
      const seeded = await seedMessage();
      const body = {
        rating: 'down',
        feedback_kind: 'answer_quality',
        feedback_issue: 'too_vague',
        note: 'Please be specific.',
        idempotency_key: key(),
      };
      const res = await feedback(seeded.message_id, body);
      const identity = feedbackIdentity({
        organization_id: org,
        connector_id: connectorId,
        message_id: seeded.message_id,
        idempotency_key: body.idempotency_key,
      });
      const events = await t.stores.eventStore.readStream(streams.replyFeedback(identity.digest));
      expect(events).toHaveLength(1);
      expect(events[0].type).toBe('ReplyFeedbackSubmitted');
      expect(events[0].metadata).toMatchObject({
        organization_id: String(org),
        actor: `connector:${connectorId}`,
      });
      expect(events[0].data).toMatchObject({
        feedback_id: res.body.feedback_id,
        response_review_id: res.body.response_review_id,
        proposal_id: null,
        organization_id: org,
        connector_id: connectorId,
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
      const { message_id } = await seedMessage();
      const before = await head();
      const res = await feedback(message_id, { ...body, external_feedback_id: key() });
      expect(res.status).toBe(422);
      expect(res.body.ok).toBe(false);
      expect(res.body.error.code).toBe('validation_failed');
      expect(res.body.error.details.map((d: { field: string }) => d.field)).toEqual(['outcome', 'rating']);
      expect(await head()).toBe(before);
    });

    it('refuses corrected without a (non-blank) suggested_answer: 422 naming suggested_answer', async () => {
      const { message_id } = await seedMessage();
      const before = await head();
      for (const body of [
        { outcome: 'corrected' },
        { outcome: 'corrected', rating: 'down', suggested_answer: ' ' },
      ]) {
        const res = await feedback(message_id, { ...body, external_feedback_id: key() });
        expect(res.status).toBe(422);
        expect(res.body.error.details.map((d: { field: string }) => d.field)).toEqual(['suggested_answer']);
      }
      expect(await head()).toBe(before);
    });

    it('refuses a request with neither outcome nor rating (422)', async () => {
      const { message_id } = await seedMessage();
      const res = await feedback(message_id, { note: 'hm', external_feedback_id: key() });
      expect(res.status).toBe(422);
      expect(res.body.error.details.map((d: { field: string }) => d.field)).toEqual(['outcome', 'rating']);
    });
  });

  describe('corrections', () => {
    it.each([[{ rating: 'down' }], [{ outcome: 'corrected' }], [{ outcome: 'corrected', rating: 'down' }]])(
      '%j with a suggested answer creates a pending proposal, never active memory',
      async (choice) => {
        const seeded = await seedMessage();
        const word = `quokka${++keys}`;
        const answer = `We open at 9 on Saturdays (${word}).`;
        const res = await feedback(seeded.message_id, {
          ...choice,
          suggested_answer: answer,
          feedback_kind: 'answer_correction',
          feedback_issue: 'not_factually_correct',
          external_feedback_id: key(),
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
        const proposals = await t.app
          .get(QueryBus)
          .execute<ListProposalsQuery, Array<Record<string, unknown>>>(new ListProposalsQuery(org, null));
        const proposal = proposals.find((p) => p.proposal_id === res.body.proposal_id);
        expect(proposal).toMatchObject({
          organization_id: org,
          status: 'captured',
          proposed_type: 'correction',
          title: `Correction to reply ${seeded.reply_id}`,
          content: answer,
          memory_item_id: null,
          proposed_policy: { review_required: true, customer_safe_candidate: false },
        });
        // Not memory: no item holds it, and search does not find it.
        const items = await t.stores.readStore.find(MEMORY_ITEMS, { filter: { organization_id: org } });
        expect(JSON.stringify(items.items)).not.toContain(word);
        const search = await http(t.baseUrl, 'POST', `${MEMORY}/search`, {
          token: searcher,
          body: { query: word },
        });
        expect(search.status).toBe(200);
        expect(search.body.results).toEqual([]);
      },
    );

    it('unsafe content in suggested_answer or note is refused (422 unsafe_content), nothing stored', async () => {
      const { message_id } = await seedMessage();
      const secret = 'AKIAZ7QWERTYUIOPASDF';
      for (const body of [
        {
          rating: 'down',
          suggested_answer: `use key ${secret} secret wJalrXUtnFEMI/K7MDENG/bPxRfiCYzEXAMPLEKEY0`,
        },
        { rating: 'up', note: `aws key ${secret} and secret wJalrXUtnFEMI/K7MDENG/bPxRfiCYzEXAMPLEKEY0` },
      ]) {
        const before = await head();
        const res = await feedback(message_id, { ...body, external_feedback_id: key() });
        expect(res.status).toBe(422);
        expect(res.body.error.code).toBe('unsafe_content');
        expect(res.body.unsafe_flags[0].field).toBe(body.note ? 'note' : 'suggested_answer');
        expect(JSON.stringify(res.body)).not.toContain(secret);
        expect(await head()).toBe(before);
      }
    });
  });

  describe('retry identity', () => {
    it('a retry with the same external_feedback_id replays: same ids, idempotent_replay true, nothing appended', async () => {
      const { message_id } = await seedMessage();
      const body = { rating: 'down', suggested_answer: 'We open at 10.', external_feedback_id: key() };
      const first = await feedback(message_id, body);
      expect(first.status).toBe(200);
      const before = await head();
      const again = await feedback(message_id, body);
      expect(again.status).toBe(200);
      expect(again.body).toEqual({ ...first.body, idempotent_replay: true });
      // The same submission expressed through the outcome instead of the rating is the same content.
      const same = await feedback(message_id, { ...body, rating: undefined, outcome: 'corrected' });
      expect(same.body).toEqual({ ...first.body, idempotent_replay: true });
      expect(await head()).toBe(before);
      const proposals = await t.app
        .get(QueryBus)
        .execute<ListProposalsQuery, Array<{ content: string }>>(new ListProposalsQuery(org, null));
      expect(proposals.filter((p) => p.content === 'We open at 10.')).toHaveLength(1);
    });

    it('idempotency_key is an alternative identity; external_feedback_id wins when both are sent', async () => {
      const { message_id } = await seedMessage();
      const byKey = { rating: 'up', idempotency_key: key() };
      const first = await feedback(message_id, byKey);
      expect((await feedback(message_id, byKey)).body).toEqual({ ...first.body, idempotent_replay: true });
      const both = { rating: 'up', external_feedback_id: key(), idempotency_key: byKey.idempotency_key };
      const second = await feedback(message_id, both);
      expect(second.body.idempotent_replay).toBe(false);
      expect(second.body.feedback_id).not.toBe(first.body.feedback_id);
      expect((await feedback(message_id, both)).body).toEqual({ ...second.body, idempotent_replay: true });
    });

    it('the same key with different content is a 409 feedback_key_reused, nothing appended', async () => {
      const { message_id } = await seedMessage();
      const id = key();
      const first = await feedback(message_id, { rating: 'up', external_feedback_id: id });
      expect(first.status).toBe(200);
      const before = await head();
      for (const changed of [
        { rating: 'down', external_feedback_id: id },
        { rating: 'up', note: 'great', external_feedback_id: id },
      ]) {
        const res = await feedback(message_id, changed);
        expect(res.status).toBe(409);
        expect(res.body.error.code).toBe('feedback_key_reused');
      }
      expect(await head()).toBe(before);
    });

    it('a key is scoped to the message and the connector: elsewhere it is a new submission', async () => {
      const one = await seedMessage();
      const two = await seedMessage();
      const id = key();
      const a = await feedback(one.message_id, { rating: 'up', external_feedback_id: id });
      const b = await feedback(two.message_id, { rating: 'down', external_feedback_id: id });
      expect(b.status).toBe(200);
      expect(b.body.idempotent_replay).toBe(false);
      expect(b.body.feedback_id).not.toBe(a.body.feedback_id);
    });

    it('concurrent duplicates record one submission; every answer carries the same ids', async () => {
      const { message_id } = await seedMessage();
      const body = { rating: 'up', external_feedback_id: key() };
      const results = await Promise.all([1, 2, 3].map(() => feedback(message_id, body)));
      expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
      expect(new Set(results.map((r) => r.body.feedback_id)).size).toBe(1);
      const identity = feedbackIdentity({
        organization_id: org,
        connector_id: connectorId,
        message_id,
        external_feedback_id: body.external_feedback_id,
      });
      expect(await t.stores.eventStore.readStream(streams.replyFeedback(identity.digest))).toHaveLength(1);
    });

    it('refuses a request without external_feedback_id or idempotency_key (422 naming both)', async () => {
      const { message_id } = await seedMessage();
      const res = await feedback(message_id, { rating: 'up' });
      expect(res.status).toBe(422);
      expect(res.body.error.details.map((d: { field: string }) => d.field)).toEqual([
        'external_feedback_id',
        'idempotency_key',
      ]);
    });
  });

  describe('which messages', () => {
    it("another organization's or another connector's message is 404 message_not_found, like an unknown one", async () => {
      const { message_id } = await seedMessage();
      const unknown = await feedback(999_999_999, { rating: 'up', external_feedback_id: key() });
      expect(unknown.status).toBe(404);
      expect(unknown.body.error.code).toBe('message_not_found');
      for (const as of [stranger, sibling]) {
        const before = await head();
        const res = await feedback(message_id, { rating: 'up', external_feedback_id: key() }, as);
        expect(res.status).toBe(404);
        expect(res.body.error.code).toBe('message_not_found');
        expect(await head()).toBe(before);
      }
    });

    it('a user message (not an assistant reply) is 404', async () => {
      const { user_message_id } = await seedMessage();
      const res = await feedback(user_message_id, { rating: 'up', external_feedback_id: key() });
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('message_not_found');
    });

    it.each(['abc', '0', '-1', '1.5', '12345678901234567890'])(
      'a message_id that is not a positive integer (%s) is 404',
      async (id) => {
        const res = await feedback(id, { rating: 'up', external_feedback_id: key() });
        expect(res.status).toBe(404);
        expect(res.body.error.code).toBe('message_not_found');
      },
    );
  });

  describe('authorization and validation', () => {
    it('needs a token (401) and the assistant_feedback capability (403)', async () => {
      const { message_id } = await seedMessage();
      const anonymous = await http(t.baseUrl, 'POST', `${REPLIES}/${message_id}/feedback`, {
        body: { rating: 'up', external_feedback_id: key() },
      });
      expect(anonymous.status).toBe(401);
      const res = await feedback(message_id, { rating: 'up', external_feedback_id: key() }, noFeedback);
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
      const { message_id } = await seedMessage();
      const res = await feedback(message_id, { external_feedback_id: key(), ...body });
      expect(res.status).toBe(422);
      expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
    });

    it('accepts the documented bounds', async () => {
      const { message_id } = await seedMessage();
      const res = await feedback(message_id, {
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

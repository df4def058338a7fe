import { CreateChatbotCommand } from '../../src/commands/chatbots/create-chatbot.command';
import { conversationDecider } from '../../src/commands/replies/conversation.decider';
import { operatorContext, systemContext } from '../../src/commands/shared/command-context';
import { StreamCommandExecutor } from '../../src/commands/shared/stream-command-executor';
import { IdGenerator } from '../../src/common/id-generator';
import { streams } from '../../src/events/domain-event';
import { createConnector, createOrganization } from './fixtures';
import { http, startTestApp, type TestApp } from './test-app';

export const REPLIES = '/app/api/tool-connectors/v1/assistant/replies';
const FEEDBACK_CAPS = ['assistant_reply', 'assistant_feedback'];

export type Seeded = {
  conversation_id: number;
  reply_id: number;
  user_message_id: number;
  message_id: number;
};

/** A Cairn server with an organization, its connectors and a way to record replies to give feedback on. */
export interface FeedbackHarness {
  t: TestApp;
  org: number;
  connectorId: number;
  /** assistant_reply + assistant_feedback */
  token: string;
  /** Another connector of the same organization, same capabilities. */
  sibling: string;
  /** A connector of another organization, same capabilities. */
  stranger: string;
  /** assistant_reply only. */
  noFeedback: string;
  /** memory_search, to check that nothing became memory. */
  searcher: string;
  /** Records a conversation with one user and one assistant message, as the reply handler does. */
  seedMessage(organizationId?: number, connectorId?: number): Promise<Seeded>;
  /** POST …/replies/{messageId}/feedback as `as` (default: token). */
  feedback(messageId: number | string, body: unknown, as?: string): ReturnType<typeof http>;
  /** The event store's head position (to check that nothing was appended). */
  head(): Promise<number>;
  /** A fresh feedback identity. */
  key(): string;
}

export async function startFeedbackHarness(): Promise<FeedbackHarness> {
  const t = await startTestApp();
  const org = (await createOrganization(t.commands, 'Feedback')).organization_id;
  const mine = await createConnector(t.commands, org, FEEDBACK_CAPS);
  const connectorId = mine.connector_id;
  const otherOrg = (await createOrganization(t.commands, 'Elsewhere')).organization_id;
  const chatbotId = (
    await t.commands.execute<CreateChatbotCommand, { chatbot_id: number }>(
      new CreateChatbotCommand(org, 'Bot', 'example.com', operatorContext('test')),
    )
  ).chatbot_id;

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
    // Like every command, it returns once the projections (the conversations read model too) have caught up.
    await executor.execute(
      stream,
      conversationDecider,
      { type: 'RecordAssistantMessage', message_id, reply_id, text: texts.assistant, now_ms },
      context,
      options,
    );
    return { conversation_id, reply_id, user_message_id, message_id };
  }

  let keys = 0;
  return {
    t,
    org,
    connectorId,
    token: mine.token,
    sibling: (await createConnector(t.commands, org, FEEDBACK_CAPS)).token,
    stranger: (await createConnector(t.commands, otherOrg, FEEDBACK_CAPS)).token,
    noFeedback: (await createConnector(t.commands, org, ['assistant_reply'])).token,
    searcher: (await createConnector(t.commands, org, ['memory_search'])).token,
    seedMessage,
    feedback: (messageId, body, as = mine.token) =>
      http(t.baseUrl, 'POST', `${REPLIES}/${messageId}/feedback`, { token: as, body }),
    head: () => t.stores.eventStore.headPosition(),
    key: () => `fb-${++keys}`,
  };
}

/**
 * The suite's harness: started in a beforeAll and closed in an afterAll that this registers. Its fields are set
 * once that beforeAll has run (read them inside tests and hooks only).
 */
export function useFeedbackHarness(): FeedbackHarness {
  // Filled in place by beforeAll, so tests can hold the reference from the start.
  const harness = {} as FeedbackHarness;
  beforeAll(async () => {
    Object.assign(harness, await startFeedbackHarness());
  });
  afterAll(async () => {
    await harness.t?.close();
  });
  return harness;
}

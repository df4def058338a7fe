import type { ConversationEvent } from '../events/replies/conversation.events';
import type { RecordedEvent } from '../infrastructure/event-store/event-store.port';
import type { Projection, ProjectionContext } from './projection';

export const CONVERSATIONS = 'conversations';
export const ASSISTANT_MESSAGES = 'assistant_messages';

/** Who a conversation belongs to (from ConversationStarted), so its messages can be attributed. */
export interface ConversationDocument {
  id: string;
  conversation_id: number;
  organization_id: number;
  connector_id: number;
  chatbot_id: number;
  external_thread_id: string;
  started_at: string;
  [key: string]: unknown;
}

/**
 * Which conversation an assistant message (a global id) is in: a look-up only. Feedback finds the conversation
 * here and then decides on the conversation stream itself (ownership and role are checked there, not here).
 */
export interface AssistantMessageDocument {
  id: string;
  message_id: number;
  conversation_id: number;
  reply_id: number;
  organization_id: number;
  connector_id: number;
  chatbot_id: number;
  recorded_at: string;
  /** The reply request's stream digest (null for messages recorded before it was kept). */
  request_digest: string | null;
  [key: string]: unknown;
}

/** Conversations of the external reply endpoint and their assistant messages (for feedback, spec §4.7). */
export const conversationsProjection: Projection = {
  name: 'conversations',
  version: 2,
  collections: [
    { name: CONVERSATIONS, indexes: ['organization_id'] },
    { name: ASSISTANT_MESSAGES, indexes: ['organization_id'] },
  ],
  eventTypes: new Set<ConversationEvent['type']>(['ConversationStarted', 'AssistantMessageRecorded']),
  async apply(recorded: RecordedEvent, context: ProjectionContext) {
    const event = recorded as unknown as ConversationEvent;
    if (event.type === 'ConversationStarted') {
      const doc: ConversationDocument = { id: String(event.data.conversation_id), ...event.data };
      context.put(CONVERSATIONS, doc);
      return;
    }
    if (event.type !== 'AssistantMessageRecorded') return;
    const { conversation_id, message_id, reply_id, recorded_at } = event.data;
    const conversation = await context.get<ConversationDocument>(CONVERSATIONS, String(conversation_id));
    // Every conversation stream starts with ConversationStarted, so this is always found; without an owner a
    // message could not be attributed to a tenant, so it is not indexed at all.
    if (!conversation) return;
    const doc: AssistantMessageDocument = {
      id: String(message_id),
      message_id,
      conversation_id,
      reply_id,
      organization_id: conversation.organization_id,
      connector_id: conversation.connector_id,
      chatbot_id: conversation.chatbot_id,
      recorded_at,
      request_digest: event.data.request_digest ?? null,
    };
    context.put(ASSISTANT_MESSAGES, doc);
  },
};

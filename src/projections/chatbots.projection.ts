import type { ChatbotEvent } from '../events/chatbots/chatbot.events';
import type { RecordedEvent } from '../infrastructure/event-store/event-store.port';
import type { Projection, ProjectionContext } from './projection';

export const CHATBOTS = 'chatbots';

export interface ChatbotDocument {
  id: string;
  chatbot_id: number;
  organization_id: number;
  name: string;
  allowed_domain: string | null;
  paused: boolean;
  created_at: string;
  updated_at: string;
  [key: string]: unknown;
}

export const chatbotsProjection: Projection = {
  name: 'chatbots',
  version: 1,
  collections: [{ name: CHATBOTS, indexes: ['organization_id'] }],
  eventTypes: new Set<ChatbotEvent['type']>(['ChatbotCreated', 'ChatbotPaused', 'ChatbotResumed']),
  async apply(recorded: RecordedEvent, context: ProjectionContext) {
    const event = recorded as unknown as ChatbotEvent;
    const at = recorded.metadata.occurred_at;
    const id = String(event.data.chatbot_id);
    if (event.type === 'ChatbotCreated') {
      const doc: ChatbotDocument = { id, ...event.data, paused: false, created_at: at, updated_at: at };
      context.put(CHATBOTS, doc);
      return;
    }
    const current = await context.get<ChatbotDocument>(CHATBOTS, id);
    if (current)
      context.put(CHATBOTS, { ...current, paused: event.type === 'ChatbotPaused', updated_at: at });
  },
};

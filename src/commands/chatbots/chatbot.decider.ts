import { ConflictError, NotFoundError } from '../../common/errors';
import type { ChatbotEvent } from '../../events/chatbots/chatbot.events';
import type { Decider } from '../shared/decider';

export type ChatbotCommand =
  | {
      type: 'CreateChatbot';
      chatbot_id: number;
      organization_id: number;
      name: string;
      allowed_domain: string | null;
    }
  /** Pause/resume name the organization: a chatbot of another organization reads as not found. */
  | { type: 'PauseChatbot'; organization_id: number }
  | { type: 'ResumeChatbot'; organization_id: number };

export type ChatbotState =
  | { exists: false }
  | {
      exists: true;
      chatbot_id: number;
      organization_id: number;
      name: string;
      allowed_domain: string | null;
      paused: boolean;
    };

export const chatbotDecider: Decider<ChatbotCommand, ChatbotState, ChatbotEvent> = {
  initialState: () => ({ exists: false }),

  evolve(state, event) {
    switch (event.type) {
      case 'ChatbotCreated':
        return { exists: true, ...event.data, paused: false };
      case 'ChatbotPaused':
        return state.exists ? { ...state, paused: true } : state;
      case 'ChatbotResumed':
        return state.exists ? { ...state, paused: false } : state;
    }
  },

  decide(command, state) {
    if (command.type === 'CreateChatbot') {
      if (state.exists) throw new ConflictError('chatbot_exists', `chatbot ${command.chatbot_id} exists`);
      const { chatbot_id, organization_id, name, allowed_domain } = command;
      return [{ type: 'ChatbotCreated', data: { chatbot_id, organization_id, name, allowed_domain } }];
    }
    if (!state.exists || state.organization_id !== command.organization_id) {
      throw new NotFoundError('chatbot not found');
    }
    const data = { chatbot_id: state.chatbot_id, organization_id: state.organization_id };
    if (command.type === 'PauseChatbot') return state.paused ? [] : [{ type: 'ChatbotPaused', data }];
    return state.paused ? [{ type: 'ChatbotResumed', data }] : [];
  },
};

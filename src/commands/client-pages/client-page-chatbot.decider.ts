import type { ClientPageChatbotEvent } from '../../events/client-pages/client-page.events';
import type { Decider } from '../shared/decider';

/** Bind a page id to a chatbot, unless the chatbot already has one (then nothing is recorded). */
export interface ClaimChatbotPage {
  type: 'ClaimChatbotPage';
  chatbot_id: number;
  organization_id: number;
  client_page_id: number;
}

export interface ChatbotPageState {
  client_page_id: number | null;
}

/**
 * One page per chatbot (`client-page-chatbot-{chatbot_id}`): the first claim names the page's id for good. A
 * later or concurrent claim records nothing, and its caller uses the page id in the state.
 */
export const clientPageChatbotDecider: Decider<ClaimChatbotPage, ChatbotPageState, ClientPageChatbotEvent> = {
  initialState: () => ({ client_page_id: null }),
  evolve: (state, event) => ({ client_page_id: state.client_page_id ?? event.data.client_page_id }),
  decide(command, state) {
    if (state.client_page_id !== null) return [];
    const { chatbot_id, organization_id, client_page_id } = command;
    return [{ type: 'ClientPageChatbotClaimed', data: { chatbot_id, organization_id, client_page_id } }];
  },
};

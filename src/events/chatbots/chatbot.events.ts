import type { DomainEvent } from '../domain-event';

export type ChatbotCreated = DomainEvent<
  'ChatbotCreated',
  { chatbot_id: number; organization_id: number; name: string; allowed_domain: string | null }
>;
export type ChatbotPaused = DomainEvent<'ChatbotPaused', { chatbot_id: number; organization_id: number }>;
export type ChatbotResumed = DomainEvent<'ChatbotResumed', { chatbot_id: number; organization_id: number }>;

export type ChatbotEvent = ChatbotCreated | ChatbotPaused | ChatbotResumed;

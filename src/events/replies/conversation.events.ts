import type { DomainEvent } from '../domain-event';

/**
 * Events of a conversation stream, `conversation-{id}` (streams.conversation). Only the external assistant reply
 * endpoint writes these, so an assistant message recorded here is one that endpoint created (feedback, §4.7 rule 4).
 */
export type ConversationStarted = DomainEvent<
  'ConversationStarted',
  {
    conversation_id: number;
    organization_id: number;
    connector_id: number;
    chatbot_id: number;
    external_thread_id: string;
    started_at: string;
  }
>;

/** The latest external message of a request (only that body is stored, spec §4.6 rule 5 and §8). */
export type UserMessageRecorded = DomainEvent<
  'UserMessageRecorded',
  {
    conversation_id: number;
    message_id: number;
    reply_id: number;
    text: string;
    external_message_id: string | null;
    recorded_at: string;
  }
>;

/** The reviewed suggested reply to a request: exactly one per reply_id. */
export type AssistantMessageRecorded = DomainEvent<
  'AssistantMessageRecorded',
  {
    conversation_id: number;
    message_id: number;
    reply_id: number;
    text: string;
    recorded_at: string;
    /** The reply request's stream digest (`reply-request-{digest}`): feedback finds the reply's receipt there. */
    request_digest?: string;
  }
>;

export type ConversationEvent = ConversationStarted | UserMessageRecorded | AssistantMessageRecorded;

/**
 * Which conversation an external thread uses, on `conversation-thread-{digest}` (streams.conversationThread), keyed
 * by (organization, connector, chatbot, external_thread_id). The first binding wins (spec §4.6 rule 4).
 */
export type ThreadBound = DomainEvent<
  'ThreadBound',
  {
    conversation_id: number;
    organization_id: number;
    connector_id: number;
    chatbot_id: number;
    external_thread_id: string;
    bound_at: string;
  }
>;

export type ConversationThreadEvent = ThreadBound;

import { ConflictError } from '../../common/errors';
import type {
  ConversationEvent,
  ConversationStarted,
  ConversationThreadEvent,
  ThreadBound,
} from '../../events/replies/conversation.events';
import type { Decider } from '../shared/decider';

/**
 * An external conversation (spec §4.6 rule 4-5): started once, one user message (the latest external message) and
 * at most one assistant message per reply. Retries of the same reply record nothing new.
 */

type ConversationKey = Omit<ConversationStarted['data'], 'started_at'>;

export type ConversationCommand =
  | ({ type: 'Start'; now_ms: number } & ConversationKey)
  | {
      type: 'RecordUserMessage';
      message_id: number;
      reply_id: number;
      text: string;
      external_message_id: string | null;
      now_ms: number;
    }
  | {
      type: 'RecordAssistantMessage';
      message_id: number;
      reply_id: number;
      text: string;
      now_ms: number;
      request_digest?: string;
    };

export type ConversationMessage = {
  message_id: number;
  conversation_id: number;
  role: 'user' | 'assistant';
  reply_id: number;
  text: string;
  external_message_id: string | null;
  recorded_at: string;
};

export type ConversationState = {
  /** Null until the conversation is started. */
  conversation: ConversationStarted['data'] | null;
  /** Every message of this conversation by message id. */
  messages: Readonly<Record<number, ConversationMessage>>;
  /** Message ids by reply id. */
  user_message_by_reply: Readonly<Record<number, number>>;
  assistant_message_by_reply: Readonly<Record<number, number>>;
};

const iso = (ms: number): string => new Date(ms).toISOString();
const has = (record: object, key: number): boolean => Object.prototype.hasOwnProperty.call(record, key);

/**
 * The assistant message with this id if it belongs to this conversation (only the external reply endpoint writes
 * conversation streams, so it was created by that endpoint); null otherwise. Feedback targets only such messages.
 */
export function assistantMessageById(
  state: ConversationState,
  message_id: number,
): ConversationMessage | null {
  const message = has(state.messages, message_id) ? state.messages[message_id] : undefined;
  return message && message.role === 'assistant' ? message : null;
}

export function userMessageForReply(state: ConversationState, reply_id: number): ConversationMessage | null {
  return has(state.user_message_by_reply, reply_id)
    ? state.messages[state.user_message_by_reply[reply_id]]
    : null;
}

export function assistantMessageForReply(
  state: ConversationState,
  reply_id: number,
): ConversationMessage | null {
  return has(state.assistant_message_by_reply, reply_id)
    ? state.messages[state.assistant_message_by_reply[reply_id]]
    : null;
}

function requireStarted(state: ConversationState): ConversationStarted['data'] {
  if (!state.conversation)
    throw new ConflictError('conversation_not_started', 'the conversation is not started');
  return state.conversation;
}

function requireFreeMessageId(state: ConversationState, message_id: number): void {
  if (has(state.messages, message_id)) {
    throw new ConflictError('message_id_taken', `message ${message_id} already exists in this conversation`);
  }
}

export const conversationDecider: Decider<ConversationCommand, ConversationState, ConversationEvent> = {
  initialState: () => ({
    conversation: null,
    messages: {},
    user_message_by_reply: {},
    assistant_message_by_reply: {},
  }),

  evolve(state, event) {
    switch (event.type) {
      case 'ConversationStarted':
        return { ...state, conversation: event.data };
      case 'UserMessageRecorded': {
        const { message_id, reply_id } = event.data;
        return {
          ...state,
          messages: { ...state.messages, [message_id]: { ...event.data, role: 'user' } },
          user_message_by_reply: { ...state.user_message_by_reply, [reply_id]: message_id },
        };
      }
      case 'AssistantMessageRecorded': {
        const { message_id, reply_id } = event.data;
        return {
          ...state,
          messages: {
            ...state.messages,
            [message_id]: { ...event.data, role: 'assistant', external_message_id: null },
          },
          assistant_message_by_reply: { ...state.assistant_message_by_reply, [reply_id]: message_id },
        };
      }
    }
  },

  decide(command, state) {
    if (command.type === 'Start') {
      const { type: _type, now_ms, ...key } = command;
      if (state.conversation) {
        const started = state.conversation;
        const same = (Object.keys(key) as Array<keyof ConversationKey>).every((k) => started[k] === key[k]);
        if (!same) {
          throw new ConflictError(
            'conversation_mismatch',
            `conversation ${key.conversation_id} belongs to another thread`,
          );
        }
        return [];
      }
      return [{ type: 'ConversationStarted', data: { ...key, started_at: iso(now_ms) } }];
    }
    const { conversation_id } = requireStarted(state);
    const { message_id, reply_id, text, now_ms } = command;
    if (command.type === 'RecordUserMessage') {
      if (has(state.user_message_by_reply, reply_id)) return [];
      requireFreeMessageId(state, message_id);
      return [
        {
          type: 'UserMessageRecorded',
          data: {
            conversation_id,
            message_id,
            reply_id,
            text,
            external_message_id: command.external_message_id,
            recorded_at: iso(now_ms),
          },
        },
      ];
    }
    const existing = assistantMessageForReply(state, reply_id);
    if (existing) {
      if (existing.text === text) return [];
      throw new ConflictError(
        'assistant_message_exists',
        `reply ${reply_id} already has an assistant message with different text`,
      );
    }
    if (!has(state.user_message_by_reply, reply_id)) {
      throw new ConflictError(
        'user_message_missing',
        `reply ${reply_id} has no user message in this conversation`,
      );
    }
    requireFreeMessageId(state, message_id);
    return [
      {
        type: 'AssistantMessageRecorded',
        data: {
          conversation_id,
          message_id,
          reply_id,
          text,
          recorded_at: iso(now_ms),
          ...(command.request_digest !== undefined ? { request_digest: command.request_digest } : {}),
        },
      },
    ];
  },
};

/** Which conversation an external thread uses: the first binding wins (concurrent first turns agree on one). */
export type ThreadBindingCommand = { type: 'BindThread'; now_ms: number } & Omit<
  ThreadBound['data'],
  'bound_at'
>;

export type ThreadBindingState = {
  /** The bound conversation, or null before the first binding. */
  conversation_id: number | null;
  binding: ThreadBound['data'] | null;
};

export const conversationThreadDecider: Decider<
  ThreadBindingCommand,
  ThreadBindingState,
  ConversationThreadEvent
> = {
  initialState: () => ({ conversation_id: null, binding: null }),
  evolve: (state, event) =>
    state.binding ? state : { conversation_id: event.data.conversation_id, binding: event.data },
  decide(command, state) {
    const { type: _type, now_ms, ...binding } = command;
    if (state.binding) {
      const bound = state.binding;
      const sameThread =
        bound.organization_id === binding.organization_id &&
        bound.connector_id === binding.connector_id &&
        bound.chatbot_id === binding.chatbot_id &&
        bound.external_thread_id === binding.external_thread_id;
      if (!sameThread) {
        throw new ConflictError('thread_binding_mismatch', 'this thread binding belongs to another thread');
      }
      return [];
    }
    return [{ type: 'ThreadBound', data: { ...binding, bound_at: iso(now_ms) } }];
  },
};

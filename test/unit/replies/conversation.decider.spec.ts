import {
  assistantMessageById,
  assistantMessageForReply,
  conversationDecider,
  conversationThreadDecider,
  userMessageForReply,
  type ConversationCommand,
} from '../../../src/commands/replies/conversation.decider';
import { fold } from '../../../src/commands/shared/decider';
import type { ConversationEvent, ThreadBound } from '../../../src/events/replies/conversation.events';
import { givenDecider } from '../../support/decider-spec';

const given = givenDecider(conversationDecider);
const T0 = Date.parse('2026-07-17T10:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();

const key = {
  conversation_id: 20,
  organization_id: 1,
  connector_id: 2,
  chatbot_id: 3,
  external_thread_id: 'thread-1',
};
const start: ConversationCommand = { type: 'Start', now_ms: T0, ...key };
const started: ConversationEvent = { type: 'ConversationStarted', data: { ...key, started_at: iso(T0) } };

const userCommand = (
  message_id: number,
  reply_id: number,
  text = 'When are you open?',
): ConversationCommand => ({
  type: 'RecordUserMessage',
  message_id,
  reply_id,
  text,
  external_message_id: `msg-${reply_id}`,
  now_ms: T0 + 1000,
});
const userEvent = (message_id: number, reply_id: number, text = 'When are you open?'): ConversationEvent => ({
  type: 'UserMessageRecorded',
  data: {
    conversation_id: 20,
    message_id,
    reply_id,
    text,
    external_message_id: `msg-${reply_id}`,
    recorded_at: iso(T0 + 1000),
  },
});
const assistantCommand = (
  message_id: number,
  reply_id: number,
  text = 'We are open 9 to 5.',
): ConversationCommand => ({
  type: 'RecordAssistantMessage',
  message_id,
  reply_id,
  text,
  now_ms: T0 + 2000,
});
const assistantEvent = (
  message_id: number,
  reply_id: number,
  text = 'We are open 9 to 5.',
): ConversationEvent => ({
  type: 'AssistantMessageRecorded',
  data: { conversation_id: 20, message_id, reply_id, text, recorded_at: iso(T0 + 2000) },
});

describe('conversation decider', () => {
  it('starts once; starting again is idempotent', () => {
    given([]).when(start).then([started]);
    given([started]).when(start).then([]);
  });

  it('refuses to restart a conversation for another thread or tenant', () => {
    given([started])
      .when({ ...start, external_thread_id: 'thread-2' })
      .thenThrows('conversation_mismatch');
    given([started])
      .when({ ...start, organization_id: 9 })
      .thenThrows('conversation_mismatch');
  });

  it('records messages only in a started conversation', () => {
    given([]).when(userCommand(30, 10)).thenThrows('conversation_not_started');
    given([]).when(assistantCommand(31, 10)).thenThrows('conversation_not_started');
  });

  it('records the user message once per reply (a retry records nothing)', () => {
    given([started])
      .when(userCommand(30, 10))
      .then([userEvent(30, 10)]);
    given([started, userEvent(30, 10)])
      .when(userCommand(32, 10))
      .then([]);
    given([started, userEvent(30, 10)])
      .when(userCommand(32, 11, 'And on Sunday?'))
      .then([userEvent(32, 11, 'And on Sunday?')]);
  });

  it('records exactly one assistant message per reply: same text is a no-op, other text a conflict', () => {
    const history = [started, userEvent(30, 10)];
    given(history)
      .when(assistantCommand(31, 10))
      .then([assistantEvent(31, 10)]);
    given([...history, assistantEvent(31, 10)])
      .when(assistantCommand(33, 10))
      .then([]);
    given([...history, assistantEvent(31, 10)])
      .when(assistantCommand(33, 10, 'We are open 24/7.'))
      .thenThrows('assistant_message_exists');
  });

  it('an assistant message answers a user message of the same reply', () => {
    given([started]).when(assistantCommand(31, 10)).thenThrows('user_message_missing');
  });

  it('never reuses a message id', () => {
    given([started, userEvent(30, 10)])
      .when(userCommand(30, 11))
      .thenThrows('message_id_taken');
    given([started, userEvent(30, 10)])
      .when(assistantCommand(30, 10))
      .thenThrows('message_id_taken');
  });

  it('exposes messages by id, so feedback can check a message is an assistant message of this conversation', () => {
    const state = fold(conversationDecider, [started, userEvent(30, 10), assistantEvent(31, 10)]);
    expect(assistantMessageById(state, 31)).toEqual({
      message_id: 31,
      conversation_id: 20,
      role: 'assistant',
      reply_id: 10,
      text: 'We are open 9 to 5.',
      external_message_id: null,
      recorded_at: iso(T0 + 2000),
    });
    expect(assistantMessageById(state, 30)).toBeNull(); // a user message
    expect(assistantMessageById(state, 99)).toBeNull(); // not in this conversation
    expect(userMessageForReply(state, 10)?.message_id).toBe(30);
    expect(assistantMessageForReply(state, 10)?.message_id).toBe(31);
    expect(assistantMessageForReply(state, 11)).toBeNull();
    expect(state.messages[30]).toMatchObject({
      role: 'user',
      text: 'When are you open?',
      external_message_id: 'msg-10',
    });
  });
});

describe('conversation thread binding decider', () => {
  const givenThread = givenDecider(conversationThreadDecider);
  const thread = { organization_id: 1, connector_id: 2, chatbot_id: 3, external_thread_id: 'thread-1' };
  const bound: ThreadBound = {
    type: 'ThreadBound',
    data: { conversation_id: 20, ...thread, bound_at: iso(T0) },
  };

  it('the first binding wins', () => {
    givenThread([])
      .when({ type: 'BindThread', now_ms: T0, conversation_id: 20, ...thread })
      .then([bound]);
  });

  it('later bindings record nothing and the state names the bound conversation (reuse per thread)', () => {
    givenThread([bound])
      .when({ type: 'BindThread', now_ms: T0 + 1, conversation_id: 21, ...thread })
      .then([]);
    expect(fold(conversationThreadDecider, [bound]).conversation_id).toBe(20);
    expect(fold(conversationThreadDecider, []).conversation_id).toBeNull();
  });

  it('a binding for another thread on the same stream is refused', () => {
    givenThread([bound])
      .when({ type: 'BindThread', now_ms: T0 + 1, conversation_id: 21, ...thread, organization_id: 9 })
      .thenThrows('thread_binding_mismatch');
  });
});

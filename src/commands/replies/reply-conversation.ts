import { Injectable } from '@nestjs/common';
import { Clock } from '../../common/clock';
import { conversationsProjection } from '../../projections/conversations.projection';
import { IdGenerator } from '../../common/id-generator';
import { streams } from '../../events/domain-event';
import type { CommandContext } from '../shared/command-context';
import { StreamCommandExecutor } from '../shared/stream-command-executor';
import {
  assistantMessageForReply,
  conversationDecider,
  conversationThreadDecider,
  userMessageForReply,
  type ConversationMessage,
  type ConversationState,
} from './conversation.decider';
import { ReplyAbort } from './reply-abort';
import { conversationThreadDigest } from './reply-identity';

export interface ConversationScope {
  organization_id: number;
  connector_id: number;
  chatbot_id: number;
  external_thread_id: string;
}

export interface OpenedConversation {
  conversation_id: number;
  user_message_id: number;
  /** Assistant messages already in the conversation (the thread safety limit counts them). */
  assistant_replies: number;
  /** This reply's assistant message is already stored. */
  reply_already_answered: boolean;
}

/**
 * The conversation of an external thread (spec §4.6 rule 4): bound once per (organization, connector, chatbot,
 * external_thread_id), reused by every later turn. Recording is idempotent per reply, so a reclaimed request
 * reuses the messages its crashed attempt recorded.
 */
@Injectable()
export class ReplyConversation {
  constructor(
    private readonly executor: StreamCommandExecutor,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  /**
   * The thread's conversation (created on its first turn) with this reply's user message recorded, how many
   * assistant replies it holds, and whether this reply's assistant message is already among them (an earlier
   * attempt of it stored one and then died).
   */
  async open(
    scope: ConversationScope,
    reply: { reply_id: number; text: string; external_message_id: string | null },
    context: CommandContext,
  ): Promise<OpenedConversation> {
    const options = { organizationId: scope.organization_id, waitFor: [] };
    const threadStream = streams.conversationThread(conversationThreadDigest(scope));
    const bound = await this.executor.load(threadStream, conversationThreadDecider);
    let conversation_id = bound.state.conversation_id;
    if (conversation_id === null) {
      const candidate = await this.ids.next('conversation');
      const executed = await this.executor.executeOn(
        threadStream,
        conversationThreadDecider,
        bound,
        { type: 'BindThread', now_ms: this.clock.nowMs(), conversation_id: candidate, ...scope },
        context,
        options,
      );
      conversation_id = executed.state.conversation_id ?? candidate;
    }
    const stream = streams.conversation(conversation_id);
    const loaded = await this.executor.load(stream, conversationDecider);
    const assistant_replies = Object.keys(loaded.state.assistant_message_by_reply).length;
    const reply_already_answered = assistantMessageForReply(loaded.state, reply.reply_id) !== null;
    const known = { conversation_id, assistant_replies, reply_already_answered };
    const existing = userMessageForReply(loaded.state, reply.reply_id);
    if (existing) return { ...known, user_message_id: existing.message_id };
    const message_id = await this.ids.next('message');
    const now_ms = this.clock.nowMs();
    const record = { type: 'RecordUserMessage' as const, message_id, now_ms, ...reply };
    // The thread's first turn starts the conversation and records its user message in one append.
    const executed = await this.executor.executeOn(
      stream,
      conversationDecider,
      loaded,
      loaded.state.conversation === null
        ? [{ type: 'Start', now_ms, conversation_id, ...scope }, record]
        : record,
      context,
      options,
    );
    return {
      ...known,
      user_message_id: userMessageForReply(executed.state, reply.reply_id)?.message_id ?? message_id,
    };
  }

  /** The conversation's key and the reply's messages as stored now (replay revalidates a receipt against them). */
  async boundMessages(
    conversationId: number,
    replyId: number,
  ): Promise<{
    conversation: ConversationState['conversation'];
    user: ConversationMessage | null;
    assistant: ConversationMessage | null;
  }> {
    const { state } = await this.executor.load(streams.conversation(conversationId), conversationDecider);
    return {
      conversation: state.conversation,
      user: userMessageForReply(state, replyId),
      assistant: assistantMessageForReply(state, replyId),
    };
  }

  /**
   * Records the assistant message of a reply once; returns its id. The same text again (a retried append) is the
   * same message; different text already stored for this reply is an abort with the message persisted.
   */
  async recordAssistant(
    scope: { organization_id: number; conversation_id: number },
    reply: { reply_id: number; text: string; request_digest: string },
    context: CommandContext,
  ): Promise<number> {
    const stream = streams.conversation(scope.conversation_id);
    const loaded = await this.executor.load(stream, conversationDecider);
    const existing = assistantMessageForReply(loaded.state, reply.reply_id);
    if (existing) {
      if (existing.text === reply.text) return existing.message_id;
      // Another attempt of this reply (one that outlived its lease) stored different text first.
      throw new ReplyAbort(
        'assistant_runtime_failed',
        'another attempt of this reply stored a different assistant message',
        true,
      );
    }
    const message_id = await this.ids.next('message');
    // The conversations read model waits: feedback on this message must find it as soon as the reply is answered.
    const executed = await this.executor.executeOn(
      stream,
      conversationDecider,
      loaded,
      { type: 'RecordAssistantMessage', message_id, now_ms: this.clock.nowMs(), ...reply },
      context,
      { organizationId: scope.organization_id, waitFor: [conversationsProjection.name] },
    );
    return assistantMessageForReply(executed.state, reply.reply_id)?.message_id ?? message_id;
  }
}

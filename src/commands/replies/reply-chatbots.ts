import { Inject, Injectable } from '@nestjs/common';
import { NotFoundError, ValidationFailedError } from '../../common/errors';
import type { ConnectorPrincipal } from '../../http/auth/connector-principal';
import { READ_STORE, type ReadStore } from '../../infrastructure/read-store/read-store.port';
import { CHATBOTS, type ChatbotDocument } from '../../projections/chatbots.projection';
import { ReplyClaims } from './reply-claims';
import { replyIdentities } from './reply-identity';
import type { RequestReplyCommand } from './request-reply.command';

/** Assistants searched for an earlier request when chatbot_id is omitted in a multi-assistant organization. */
const MAX_CHATBOTS_SEARCHED = 50;

/** Which assistant a reply request is for (spec §4.6 `chatbot_id`). */
@Injectable()
export class ReplyChatbots {
  constructor(
    @Inject(READ_STORE) private readonly readStore: ReadStore,
    private readonly claims: ReplyClaims,
  ) {}

  /**
   * The named assistant of the caller's organization, or its only one (spec §4.6: required when several). Without
   * chatbot_id in an organization with several, a request that was already recorded under one of them is that
   * request (the stored request names its chatbot): assistants added since never break a replay.
   */
  async resolve(
    connector: ConnectorPrincipal,
    input: RequestReplyCommand['input'],
  ): Promise<ChatbotDocument> {
    if (input.chatbot_id !== undefined) {
      const chatbot = await this.readStore.get<ChatbotDocument>(CHATBOTS, String(input.chatbot_id));
      if (!chatbot || chatbot.organization_id !== connector.organization_id) {
        throw new NotFoundError('assistant not found', 'chatbot_not_found');
      }
      return chatbot;
    }
    const { items } = await this.readStore.find<ChatbotDocument>(CHATBOTS, {
      filter: { organization_id: connector.organization_id },
      limit: MAX_CHATBOTS_SEARCHED,
    });
    if (items.length === 1) return items[0];
    const recorded: ChatbotDocument[] = [];
    for (const chatbot of items) {
      const identities = replyIdentities({
        organization_id: connector.organization_id,
        connector_id: connector.connector_id,
        chatbot_id: chatbot.chatbot_id,
        idempotency_key: input.idempotency_key,
        external_message_id: input.external_message_id,
      });
      if ((await this.claims.targets(identities)).some((target) => target !== null)) recorded.push(chatbot);
    }
    if (recorded.length === 1) return recorded[0];
    throw new ValidationFailedError(
      items.length === 0
        ? 'the organization has no assistant'
        : 'the organization has more than one assistant: send chatbot_id',
      [{ field: 'chatbot_id', message: items.length === 0 ? 'no assistant exists' : 'required' }],
    );
  }
}

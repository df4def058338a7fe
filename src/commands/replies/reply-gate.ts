import { Injectable } from '@nestjs/common';
import { streams } from '../../events/domain-event';
import { chatbotDecider } from '../chatbots/chatbot.decider';
import { OrganizationLoader } from '../shared/organization-loader';
import { StreamCommandExecutor } from '../shared/stream-command-executor';
import type { SystemStatusCode } from './outcome-policy';

/** Why replies may not run now, read from the organization's and the chatbot's own streams (consistent). */
export interface ReplyGateVerdict {
  /** The pause that applies, or null. */
  paused: Extract<SystemStatusCode, 'organization_agent_activity_paused' | 'assistant_paused'> | null;
  /** The organization's monthly reply limit (null: none set). */
  monthly_reply_limit: number | null;
}

/** Operator state that gates a reply run: `org:pause-agents`, `chatbot:pause` and the plan limit. */
@Injectable()
export class ReplyGate {
  constructor(
    private readonly executor: StreamCommandExecutor,
    private readonly organizations: OrganizationLoader,
  ) {}

  async check(organizationId: number, chatbotId: number): Promise<ReplyGateVerdict> {
    const organization = await this.organizations.require(organizationId);
    const monthly_reply_limit = organization.monthly_reply_limit;
    if (organization.agent_activity_paused)
      return { paused: 'organization_agent_activity_paused', monthly_reply_limit };
    const chatbot = (await this.executor.loadLatest(streams.chatbot(chatbotId), chatbotDecider)).state;
    if (chatbot.exists && chatbot.paused) return { paused: 'assistant_paused', monthly_reply_limit };
    return { paused: null, monthly_reply_limit };
  }
}

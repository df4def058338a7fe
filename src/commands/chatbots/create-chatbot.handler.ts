import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { IdGenerator } from '../../common/id-generator';
import { streams } from '../../events/domain-event';
import { displayName, domainName } from '../shared/domain-values';
import { OrganizationLoader } from '../shared/organization-loader';
import { StreamCommandExecutor } from '../shared/stream-command-executor';
import { chatbotDecider } from './chatbot.decider';
import { CreateChatbotCommand, type CreateChatbotResult } from './create-chatbot.command';

@CommandHandler(CreateChatbotCommand)
export class CreateChatbotHandler implements ICommandHandler<CreateChatbotCommand, CreateChatbotResult> {
  constructor(
    private readonly executor: StreamCommandExecutor,
    private readonly organizations: OrganizationLoader,
    private readonly ids: IdGenerator,
  ) {}

  async execute(command: CreateChatbotCommand): Promise<CreateChatbotResult> {
    const name = displayName(command.name);
    const allowedDomain = command.allowedDomain === null ? null : domainName(command.allowedDomain);
    await this.organizations.require(command.organizationId);
    const chatbotId = await this.ids.next('chatbot');
    await this.executor.execute(
      streams.chatbot(chatbotId),
      chatbotDecider,
      {
        type: 'CreateChatbot',
        chatbot_id: chatbotId,
        organization_id: command.organizationId,
        name,
        allowed_domain: allowedDomain,
      },
      command.context,
      { organizationId: command.organizationId },
    );
    return { chatbot_id: chatbotId };
  }
}

import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { streams } from '../../events/domain-event';
import { StreamCommandExecutor } from '../shared/stream-command-executor';
import { chatbotDecider } from './chatbot.decider';
import { SetChatbotPausedCommand, type SetChatbotPausedResult } from './set-chatbot-paused.command';

@CommandHandler(SetChatbotPausedCommand)
export class SetChatbotPausedHandler implements ICommandHandler<
  SetChatbotPausedCommand,
  SetChatbotPausedResult
> {
  constructor(private readonly executor: StreamCommandExecutor) {}

  async execute(command: SetChatbotPausedCommand): Promise<SetChatbotPausedResult> {
    const result = await this.executor.execute(
      streams.chatbot(command.chatbotId),
      chatbotDecider,
      { type: command.paused ? 'PauseChatbot' : 'ResumeChatbot', organization_id: command.organizationId },
      command.context,
      { organizationId: command.organizationId },
    );
    return { chatbot_id: command.chatbotId, paused: command.paused, changed: result.events.length > 0 };
  }
}

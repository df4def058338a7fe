import type { CommandContext } from '../shared/command-context';

export class CreateChatbotCommand {
  constructor(
    readonly organizationId: number,
    readonly name: string,
    readonly allowedDomain: string | null,
    readonly context: CommandContext,
  ) {}
}

export interface CreateChatbotResult {
  chatbot_id: number;
}

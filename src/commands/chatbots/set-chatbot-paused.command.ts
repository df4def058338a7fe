import type { CommandContext } from '../shared/command-context';

export class SetChatbotPausedCommand {
  constructor(
    readonly organizationId: number,
    readonly chatbotId: number,
    readonly paused: boolean,
    readonly context: CommandContext,
  ) {}
}

export interface SetChatbotPausedResult {
  chatbot_id: number;
  paused: boolean;
  changed: boolean;
}

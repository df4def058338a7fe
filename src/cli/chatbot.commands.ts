import { Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { Command, Option } from 'nest-commander';
import { CreateChatbotCommand, type CreateChatbotResult } from '../commands/chatbots/create-chatbot.command';
import {
  SetChatbotPausedCommand,
  type SetChatbotPausedResult,
} from '../commands/chatbots/set-chatbot-paused.command';
import { operatorContext } from '../commands/shared/command-context';
import { expectArgs, parseId, requireOption } from './cli-args';
import { JsonCommand } from './json-command';

@Command({ name: 'chatbot:create', arguments: '<ORG>', description: 'Create an assistant → {chatbot_id}' })
export class ChatbotCreateCommand extends JsonCommand {
  constructor(private readonly commands: CommandBus) {
    super();
  }

  protected execute(params: string[], options: { name?: string; allowedDomain?: string }): Promise<object> {
    expectArgs(params, 1, 'chatbot:create ORG --name N [--allowed-domain D]');
    return this.commands.execute<CreateChatbotCommand, CreateChatbotResult>(
      new CreateChatbotCommand(
        parseId(params[0], 'ORG'),
        requireOption(options.name, '--name'),
        options.allowedDomain ?? null,
        operatorContext(),
      ),
    );
  }

  @Option({ flags: '--name <name>', description: 'display name' })
  parseName(value: string): string {
    return value;
  }

  @Option({
    flags: '--allowed-domain <domain>',
    description: 'the website host the assistant is embedded on',
  })
  parseAllowedDomain(value: string): string {
    return value;
  }
}

/** Decorated so its subclasses inherit the constructor's injection metadata. */
@Injectable()
abstract class ChatbotPauseToggle extends JsonCommand {
  protected abstract readonly paused: boolean;

  constructor(private readonly commands: CommandBus) {
    super();
  }

  protected execute(params: string[]): Promise<object> {
    expectArgs(params, 2, `${this.paused ? 'chatbot:pause' : 'chatbot:resume'} ORG CHATBOT`);
    return this.commands.execute<SetChatbotPausedCommand, SetChatbotPausedResult>(
      new SetChatbotPausedCommand(
        parseId(params[0], 'ORG'),
        parseId(params[1], 'CHATBOT'),
        this.paused,
        operatorContext(),
      ),
    );
  }
}

@Command({ name: 'chatbot:pause', arguments: '<ORG> <CHATBOT>', description: 'Pause an assistant' })
export class ChatbotPauseCommand extends ChatbotPauseToggle {
  protected readonly paused = true;
}

@Command({ name: 'chatbot:resume', arguments: '<ORG> <CHATBOT>', description: 'Resume an assistant' })
export class ChatbotResumeCommand extends ChatbotPauseToggle {
  protected readonly paused = false;
}

import { CommandBus } from '@nestjs/cqrs';
import { Command, Option } from 'nest-commander';
import {
  EraseSubjectCommand,
  type EraseSubjectInput,
  type EraseSubjectResult,
} from '../commands/erasure/erase-subject.command';
import { operatorContext } from '../commands/shared/command-context';
import type { ErasedKind } from '../events/erasure/erasure.events';
import { expectArgs, parseId } from './cli-args';
import { JsonCommand } from './json-command';

interface EraseOptions {
  reason?: string;
}

const RESULT = '{subject, erased, changed, erased_by, erased_at, keys_destroyed, read_models_forgot}';

/** The three erase commands differ only in what they name. */
abstract class EraseCommand extends JsonCommand {
  protected abstract readonly kind: ErasedKind;
  protected abstract readonly usage: string;

  constructor(private readonly commands: CommandBus) {
    super();
  }

  protected abstract parseReason(value: string): string;

  protected execute(params: string[], options: EraseOptions): Promise<object> {
    const organization_id = parseId(params[0], 'ORG');
    const single = this.kind === 'organization';
    expectArgs(params, single ? 1 : 2, this.usage);
    const input: EraseSubjectInput = {
      organization_id,
      kind: this.kind,
      id: single
        ? organization_id
        : parseId(params[1], this.kind === 'conversation' ? 'CONVERSATION' : 'ITEM'),
      reason: options.reason ?? null,
    };
    return this.commands.execute<EraseSubjectCommand, EraseSubjectResult>(
      new EraseSubjectCommand(input, operatorContext()),
    );
  }
}

const REASON = { flags: '--reason <text>', description: 'why (recorded in the erasure event)' };

@Command({
  name: 'memory:erase',
  arguments: '[ORG] [ITEM]',
  description: `Erase a memory item for good (its data key destroyed; search, vectors and reply views drop it) → ${RESULT}`,
})
export class MemoryEraseCommand extends EraseCommand {
  protected readonly kind = 'memory_item';
  protected readonly usage = 'memory:erase ORG ITEM [--reason TEXT]';

  // Nest injects by the class's own constructor metadata: each command declares it.
  constructor(commands: CommandBus) {
    super(commands);
  }

  @Option(REASON)
  parseReason(value: string): string {
    return value;
  }
}

@Command({
  name: 'conversation:erase',
  arguments: '[ORG] [CONVERSATION]',
  description: `Erase a conversation (a customer's messages, the replies' texts, its recall queries and tool runs) → ${RESULT}`,
})
export class ConversationEraseCommand extends EraseCommand {
  protected readonly kind = 'conversation';
  protected readonly usage = 'conversation:erase ORG CONVERSATION [--reason TEXT]';

  // Nest injects by the class's own constructor metadata: each command declares it.
  constructor(commands: CommandBus) {
    super(commands);
  }

  @Option(REASON)
  parseReason(value: string): string {
    return value;
  }
}

@Command({
  name: 'org:erase',
  arguments: '[ORG]',
  description: `Erase every sealed text of an organization (every data key destroyed, every read model rebuilt) → ${RESULT}`,
})
export class OrganizationEraseCommand extends EraseCommand {
  protected readonly kind = 'organization';
  protected readonly usage = 'org:erase ORG [--reason TEXT]';

  // Nest injects by the class's own constructor metadata: each command declares it.
  constructor(commands: CommandBus) {
    super(commands);
  }

  @Option(REASON)
  parseReason(value: string): string {
    return value;
  }
}

import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { streams } from '../../events/domain-event';
import { StreamCommandExecutor } from '../shared/stream-command-executor';
import { ArchiveMemoryItemCommand, type ArchiveMemoryItemResult } from './archive-memory-item.command';
import { ErasedMemoryItems } from './erased-memory-items';
import { memoryItemDecider } from './memory-item.decider';

/** Archives an item (idempotent); another organization's or an unknown item is not found, an erased one refused. */
@CommandHandler(ArchiveMemoryItemCommand)
export class ArchiveMemoryItemHandler implements ICommandHandler<
  ArchiveMemoryItemCommand,
  ArchiveMemoryItemResult
> {
  constructor(
    private readonly executor: StreamCommandExecutor,
    private readonly erasures: ErasedMemoryItems,
  ) {}

  async execute(command: ArchiveMemoryItemCommand): Promise<ArchiveMemoryItemResult> {
    const { organizationId: organization_id, memoryItemId, context } = command;
    await this.erasures.requireNotErased(organization_id, memoryItemId);
    const result = await this.executor.execute(
      streams.memoryItem(memoryItemId),
      memoryItemDecider,
      { type: 'ArchiveMemoryItem', organization_id },
      context,
      { organizationId: organization_id },
    );
    return { memory_item_id: memoryItemId, archived: true, changed: result.events.length > 0 };
  }
}

import type { CommandContext } from '../shared/command-context';

/** Archives an organization's memory item: it leaves search; archiving twice changes nothing. */
export class ArchiveMemoryItemCommand {
  constructor(
    readonly organizationId: number,
    readonly memoryItemId: number,
    readonly context: CommandContext,
  ) {}
}

export interface ArchiveMemoryItemResult {
  memory_item_id: number;
  archived: true;
  /** False when the item was archived already (nothing appended). */
  changed: boolean;
}

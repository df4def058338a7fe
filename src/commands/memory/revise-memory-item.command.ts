import type { DocumentInput } from './ingest-document.command';
import type { CommandContext } from '../shared/command-context';

/** New content for an existing item; what it leaves out stays as the item has it. */
export interface MemoryItemRevisionInput {
  content: string;
  format: DocumentInput['format'];
  /** null keeps the item's title. */
  title: string | null;
  /** ISO 8601; null keeps the item's. */
  source_date: string | null;
  /** ISO 8601; null keeps the item's. */
  expires_at: string | null;
}

/** Revises an organization's memory item (404 for another organization's or an unknown item; 409 if archived). */
export class ReviseMemoryItemCommand {
  constructor(
    readonly organizationId: number,
    readonly memoryItemId: number,
    readonly revision: MemoryItemRevisionInput,
    readonly context: CommandContext,
  ) {}
}

export interface ReviseMemoryItemResult {
  memory_item_id: number;
  memory_source_id: number;
  revision: number;
  /** `unchanged`: the title and content are those of the current revision; nothing was appended. */
  status: 'revised' | 'unchanged';
  chunks: number;
}

import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { ConflictError, InternalError, NotFoundError } from '../../common/errors';
import { IdGenerator } from '../../common/id-generator';
import { streams } from '../../events/domain-event';
import type { MemoryContent } from '../../events/memory/memory.events';
import { StreamCommandExecutor } from '../shared/stream-command-executor';
import { prepareContent } from './document-content';
import { ErasedMemoryItems } from './erased-memory-items';
import { memoryItemDecider } from './memory-item.decider';
import { MemoryItemWriter } from './memory-item-writer';
import { ReviseMemoryItemCommand, type ReviseMemoryItemResult } from './revise-memory-item.command';

/**
 * Appends a revision to an item from new content: validated and chunked like an ingested document, new chunk
 * ids, the item's title, dates and classification kept unless given. The same title and content appends nothing.
 */
@CommandHandler(ReviseMemoryItemCommand)
export class ReviseMemoryItemHandler implements ICommandHandler<
  ReviseMemoryItemCommand,
  ReviseMemoryItemResult
> {
  constructor(
    private readonly executor: StreamCommandExecutor,
    private readonly ids: IdGenerator,
    private readonly erasures: ErasedMemoryItems,
    private readonly writer: MemoryItemWriter,
  ) {}

  async execute(command: ReviseMemoryItemCommand): Promise<ReviseMemoryItemResult> {
    const { organizationId: organization_id, memoryItemId, revision: input, context } = command;
    const stream = streams.memoryItem(memoryItemId);
    const loaded = await this.executor.load(stream, memoryItemDecider);
    const { state } = loaded;
    if (!state.exists || state.organization_id !== organization_id) {
      throw new NotFoundError('memory item not found');
    }
    // Before anything is compared: an erased item's content digest is kept in clear, and "unchanged" would confirm it.
    await this.erasures.requireNotErased(organization_id, memoryItemId);
    if (state.archived) {
      throw new ConflictError('memory_item_archived', 'an archived memory item cannot be revised');
    }
    const { pieces, ...fields } = prepareContent({
      document_key: `memory-item:${memoryItemId}`,
      title: input.title ?? state.title,
      content: input.content,
      format: input.format,
      type: state.type,
      audience: state.audience,
      authority_level: state.authority_level,
      source_label: '',
      source_uri: state.source_uri,
      source_date: input.source_date ?? state.source_date,
      effective_at: state.effective_at,
      expires_at: input.expires_at ?? state.expires_at,
      summary: null,
    });
    const ids = { memory_item_id: state.memory_item_id, memory_source_id: state.memory_source_id };
    if (fields.content_sha256 === state.content_sha256) {
      return { ...ids, revision: state.revision, status: 'unchanged', chunks: state.chunks.length };
    }
    const chunkIds = await this.ids.many('memory_chunk', pieces.length);
    const content: MemoryContent = {
      ...fields,
      chunks: pieces.map((piece, index) => ({ memory_chunk_id: chunkIds[index], ...piece })),
    };
    // Through the writer: a revision too large for one append is written in parts, as ingestion writes it.
    const result = await this.writer.write(
      stream,
      loaded,
      { type: 'ReviseMemoryItem', organization_id, content },
      context,
      { organizationId: organization_id },
    );
    if (!result.state.exists) throw new InternalError('memory item vanished');
    return {
      ...ids,
      revision: result.state.revision,
      status: result.events.length === 0 ? 'unchanged' : 'revised',
      chunks: result.state.chunks.length,
    };
  }
}

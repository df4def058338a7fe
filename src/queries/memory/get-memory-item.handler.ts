import { Inject } from '@nestjs/common';
import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { Clock } from '../../common/clock';
import { NotFoundError } from '../../common/errors';
import { READ_STORE, type ReadStore } from '../../infrastructure/read-store/read-store.port';
import { itemContent, MEMORY_ITEMS, type MemoryItemDocument } from '../../projections/memory.projection';
import { GetMemoryItemQuery } from './get-memory-item.query';
import { toMemoryItemView, visibleTo, type MemoryItemView } from './memory-item-view';

/**
 * One item with its content: exactly the §2.1 fields plus `content` (the spec's shape: no `ok`), and
 * `memory_chunk_ids` all chunks of its current revision in order. Unknown, archived, another organization's or
 * another connector's private item: the same 404.
 */
@QueryHandler(GetMemoryItemQuery)
export class GetMemoryItemHandler implements IQueryHandler<
  GetMemoryItemQuery,
  MemoryItemView & { content: string }
> {
  constructor(
    @Inject(READ_STORE) private readonly readStore: ReadStore,
    private readonly clock: Clock,
  ) {}

  async execute(query: GetMemoryItemQuery): Promise<MemoryItemView & { content: string }> {
    const item = await this.readStore.get<MemoryItemDocument>(MEMORY_ITEMS, String(query.memoryItemId));
    if (!item || !visibleTo(item, query.connector.organization_id, query.connector.client_key)) {
      throw new NotFoundError('memory item not found', 'memory_item_not_found');
    }
    const view = toMemoryItemView(
      item,
      item.chunks.map((chunk) => chunk.memory_chunk_id),
      this.clock.nowMs(),
    );
    return { ...view, content: itemContent(item) };
  }
}

import { Injectable } from '@nestjs/common';
import { InternalError } from '../../common/errors';
import { IdGenerator } from '../../common/id-generator';
import { streams } from '../../events/domain-event';
import type {
  MemoryContent,
  MemoryItemCreated,
  MemorySourceRegistered,
} from '../../events/memory/memory.events';
import type { CommandContext } from '../shared/command-context';
import { StreamCommandExecutor } from '../shared/stream-command-executor';
import { prepareContent, type PreparedContent } from './document-content';
import type { DocumentInput } from './ingest-document.command';
import { memorySourceDecider } from './memory-claims.decider';
import { memoryItemDecider, type MemoryItemState } from './memory-item.decider';

export type NewItemFields = Omit<
  MemoryItemCreated['data'],
  keyof MemoryContent | 'memory_item_id' | 'memory_source_id' | 'organization_id' | 'revision'
>;

/** Writes memory sources and items: validation, chunking and chunk ids in one place for every entry point. */
@Injectable()
export class MemoryItemWriter {
  constructor(
    private readonly executor: StreamCommandExecutor,
    private readonly ids: IdGenerator,
  ) {}

  /** Validated content with fresh chunk ids. */
  async content(
    input: Pick<
      DocumentInput,
      'title' | 'content' | 'format' | 'summary' | 'source_date' | 'effective_at' | 'expires_at'
    >,
  ): Promise<MemoryContent> {
    return this.withChunkIds(
      prepareContent({
        ...input,
        document_key: '',
        type: '',
        audience: 'internal',
        authority_level: 'unverified',
        source_label: '',
        source_uri: null,
      }),
    );
  }

  /** Prepared content (see prepareContent) with fresh chunk ids. */
  async withChunkIds({ pieces, ...fields }: PreparedContent): Promise<MemoryContent> {
    const chunkIds = await this.ids.many('memory_chunk', pieces.length);
    return {
      ...fields,
      chunks: pieces.map((piece, index) => ({ memory_chunk_id: chunkIds[index], ...piece })),
    };
  }

  /** Registers a source once (idempotent). */
  async registerSource(
    source: MemorySourceRegistered['data'],
    context: CommandContext,
    waitFor: readonly string[] = [],
  ): Promise<void> {
    await this.executor.execute(
      streams.memorySource(source.memory_source_id),
      memorySourceDecider,
      { type: 'RegisterSource', source },
      context,
      { organizationId: source.organization_id, waitFor },
    );
  }

  /** Creates the item (idempotent for the same content) and waits for the read models. */
  async create(
    ids: { organization_id: number; memory_item_id: number; memory_source_id: number },
    content: MemoryContent,
    fields: NewItemFields,
    context: CommandContext,
  ): Promise<Extract<MemoryItemState, { exists: true }>> {
    const result = await this.executor.execute(
      streams.memoryItem(ids.memory_item_id),
      memoryItemDecider,
      { type: 'CreateMemoryItem', item: { ...content, ...fields, ...ids, revision: 1 } },
      context,
      { organizationId: ids.organization_id },
    );
    if (!result.state.exists) throw new InternalError('memory item was not created');
    return result.state;
  }

  /**
   * Appends a revision of an existing item of the organization (404 otherwise). With `proposalId` (an approved
   * correction) nothing is appended when a revision already applied that proposal.
   */
  async revise(
    organizationId: number,
    memoryItemId: number,
    content: MemoryContent,
    context: CommandContext,
    proposalId?: number,
  ): Promise<Extract<MemoryItemState, { exists: true }>> {
    const result = await this.executor.execute(
      streams.memoryItem(memoryItemId),
      memoryItemDecider,
      {
        type: 'ReviseMemoryItem',
        organization_id: organizationId,
        content,
        ...(proposalId === undefined ? {} : { proposal_id: proposalId }),
      },
      context,
      { organizationId },
    );
    if (!result.state.exists) throw new InternalError('memory item vanished');
    return result.state;
  }
}

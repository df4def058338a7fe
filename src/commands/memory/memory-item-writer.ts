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
import {
  StreamCommandExecutor,
  type Executed,
  type ExecuteOptions,
  type Loaded,
} from '../shared/stream-command-executor';
import type { MemoryItemEvent } from '../../events/memory/memory.events';
import { splitContent } from './content-parts';
import { prepareContent, type PreparedContent } from './document-content';
import type { DocumentInput } from './ingest-document.command';
import { memorySourceDecider } from './memory-claims.decider';
import {
  memoryItemDecider,
  nextRevision,
  pendingParts,
  type MemoryItemCommand,
  type MemoryItemState,
} from './memory-item.decider';

type ContentCommand = Extract<MemoryItemCommand, { type: 'CreateMemoryItem' | 'ReviseMemoryItem' }>;

function contentOf(command: ContentCommand): MemoryContent {
  return command.type === 'CreateMemoryItem' ? command.item : command.content;
}

function itemIds(
  command: ContentCommand,
  state: MemoryItemState,
): { memory_item_id: number; organization_id: number } {
  if (command.type === 'CreateMemoryItem') {
    return { memory_item_id: command.item.memory_item_id, organization_id: command.item.organization_id };
  }
  if (!state.exists) throw new InternalError('a revision of a memory item that does not exist');
  return { memory_item_id: state.memory_item_id, organization_id: command.organization_id };
}

/** The command with its content and chunks replaced by a count of parts recorded before it. */
function inParts(command: ContentCommand, parts: number): ContentCommand {
  const content = { ...contentOf(command), content: '', chunks: [], parts };
  return command.type === 'CreateMemoryItem'
    ? { ...command, item: { ...command.item, ...content } }
    : { ...command, content };
}

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

  /** The item as it was at `revision` (null when it never reached it, or does not exist). */
  async atRevision(
    memoryItemId: number,
    revision: number,
  ): Promise<Extract<MemoryItemState, { exists: true }> | null> {
    const { events } = await this.executor.load(streams.memoryItem(memoryItemId), memoryItemDecider);
    let state = memoryItemDecider.initialState();
    for (const event of events) {
      state = memoryItemDecider.evolve(state, event as unknown as MemoryItemEvent);
      if (state.exists && state.revision === revision && state.pending === undefined) return state;
      if (state.exists && state.revision > revision) return null;
    }
    return null;
  }

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
    const stream = streams.memoryItem(ids.memory_item_id);
    const result = await this.write(
      stream,
      await this.executor.load(stream, memoryItemDecider),
      { type: 'CreateMemoryItem', item: { ...content, ...fields, ...ids, revision: 1 } },
      context,
      { organizationId: ids.organization_id },
    );
    if (!result.state.exists) throw new InternalError('memory item was not created');
    return result.state;
  }

  /**
   * Appends a revision of an existing item of the organization (404 otherwise). With `correction` (an approved
   * correction) nothing is appended when a revision already applied that proposal, and the item must still be at
   * the revision the content was made from.
   */
  async revise(
    organizationId: number,
    memoryItemId: number,
    content: MemoryContent,
    context: CommandContext,
    correction?: { proposal_id: number; base_revision: number },
  ): Promise<Extract<MemoryItemState, { exists: true }>> {
    const stream = streams.memoryItem(memoryItemId);
    const result = await this.write(
      stream,
      await this.executor.load(stream, memoryItemDecider),
      {
        type: 'ReviseMemoryItem',
        organization_id: organizationId,
        content,
        ...(correction ?? {}),
      },
      context,
      { organizationId },
    );
    if (!result.state.exists) throw new InternalError('memory item vanished');
    return result.state;
  }

  /**
   * Creates or revises an item on a stream the caller has just read. A revision larger than one append is
   * written in parts (content-parts.ts): each part its own append (skipping parts an interrupted run already
   * recorded), then the Created/Revised event naming the count. Nothing changes for readers until that last one.
   */
  async write(
    stream: string,
    loaded: Loaded<MemoryItemState>,
    command: ContentCommand,
    context: CommandContext,
    options: ExecuteOptions,
  ): Promise<Executed<MemoryItemState, MemoryItemEvent>> {
    const content = contentOf(command);
    const parts = splitContent(content);
    // Decided on the state read (pure): a command that records nothing, or is refused, needs no parts.
    const wouldRecord = parts !== null && this.wouldRecord(command, loaded.state);
    if (parts === null || !wouldRecord) {
      return this.executor.executeOn(stream, memoryItemDecider, loaded, command, context, options);
    }
    const revision = nextRevision(loaded.state);
    const recorded = pendingParts(loaded.state, revision, content.content_sha256).length;
    const partOptions = { ...options, waitFor: [] };
    for (let part = recorded; part < parts.length; part += 1) {
      const data = {
        ...itemIds(command, loaded.state),
        revision,
        content_sha256: content.content_sha256,
        part,
        ...parts[part],
      };
      await this.executor.execute(
        stream,
        memoryItemDecider,
        { type: 'RecordContentPart', part: data },
        context,
        partOptions,
      );
    }
    return this.executor.execute(stream, memoryItemDecider, inParts(command, parts.length), context, options);
  }

  private wouldRecord(command: ContentCommand, state: MemoryItemState): boolean {
    try {
      return memoryItemDecider.decide(command, state).length > 0;
    } catch {
      return false;
    }
  }
}

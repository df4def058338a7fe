import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { createHash } from 'node:crypto';
import { ConflictError, InternalError, UnsafeContentError } from '../../common/errors';
import { IdGenerator } from '../../common/id-generator';
import { streams, type DomainEvent } from '../../events/domain-event';
import type { Decider } from '../shared/decider';
import { OrganizationLoader } from '../shared/organization-loader';
import type { UnsafeFlagsAllowed } from '../../events/memory/memory.events';
import { UnsafeContentScanner } from '../../safety/unsafe-content/unsafe-content-scanner';
import { StreamCommandExecutor, type Loaded } from '../shared/stream-command-executor';
import { prepareContent, type PreparedContent } from './document-content';
import { IngestDocumentCommand, type IngestDocumentResult } from './ingest-document.command';
import { memoryDocumentDecider, memorySourceDecider } from './memory-claims.decider';
import { memoryItemDecider, type MemoryItemState } from './memory-item.decider';
import { ErasedMemoryItems } from './erased-memory-items';
import { MemoryItemWriter } from './memory-item-writer';

/** The item and source ids a document key's claim fixes. */
interface DocumentClaim {
  memory_item_id: number;
  memory_source_id: number;
}

/** Shared sources' ids kept by an ingesting process (forgotten all at once when full: re-read on next use). */
const SHARED_SOURCES_KEPT = 1024;

/**
 * Ingests one document: the document key's claim stream fixes its item/source ids (first ingestion wins), so
 * re-ingesting unchanged content appends nothing and changed content appends one revision. Every step is
 * idempotent, so an ingestion interrupted half-way completes when it is run again. Only the item's append waits
 * for the read models, and not at all with `waitForReadModels: false` (bulk ingestion waits once at the end).
 * Scanned first, with the scanner save and proposals use (issue 29: ingested documents can become customer-facing
 * evidence): a finding the operator did not allow refuses the document (422 unsafe_content) and stores nothing.
 * The records of one file share one source (`source_key`); a document whose item was erased is claimed again for a
 * new item.
 */
@CommandHandler(IngestDocumentCommand)
export class IngestDocumentHandler implements ICommandHandler<IngestDocumentCommand, IngestDocumentResult> {
  /** Shared source stream → source id (a registered source never changes). */
  private readonly sharedSources = new Map<string, number>();

  constructor(
    private readonly executor: StreamCommandExecutor,
    private readonly organizations: OrganizationLoader,
    private readonly ids: IdGenerator,
    private readonly writer: MemoryItemWriter,
    private readonly scanner: UnsafeContentScanner,
    private readonly erasures: ErasedMemoryItems,
  ) {}

  async execute(command: IngestDocumentCommand): Promise<IngestDocumentResult> {
    const { organizationId: organization_id, document, context } = command;
    const prepared = prepareContent(document);
    const allowedFlags = await this.scan(command);
    await this.organizations.require(organization_id);
    const options = { organizationId: organization_id, waitFor: [] as string[] };

    const claimStream = streams.memoryDocument(
      createHash('sha256').update(`${organization_id}\u0000${document.document_key}`).digest('hex'),
    );
    const shared = document.source_key ? await this.sharedSource(command) : null;
    const loadedClaim = await this.executor.load(claimStream, memoryDocumentDecider);
    let claim = loadedClaim.state.claimed;
    // A claim made just now names fresh ids: its source and item streams cannot exist yet.
    let fresh = false;
    if (!claim) {
      const memory_item_id = await this.ids.next('memory_item');
      const memory_source_id = shared ?? (await this.ids.next('memory_source'));
      const claimed = await this.executor.executeOn(
        claimStream,
        memoryDocumentDecider,
        loadedClaim,
        {
          type: 'ClaimDocument',
          organization_id,
          document_key: document.document_key,
          memory_item_id,
          memory_source_id,
        },
        context,
        options,
      );
      claim = claimed.state.claimed;
      fresh = claim?.memory_item_id === memory_item_id;
    }
    if (!claim) throw new InternalError('document claim missing');
    if (!fresh && (await this.erasures.erased(organization_id, claim.memory_item_id))) {
      ({ claim, fresh } = await this.reclaim(command, claimStream, loadedClaim, claim));
    }

    if (claim.memory_source_id !== shared) {
      // The document is its own source (or was claimed with one before it shared its file's).
      const sourceStream = streams.memorySource(claim.memory_source_id);
      await this.registerSource(
        command,
        sourceStream,
        fresh ? empty(memorySourceDecider) : await this.executor.load(sourceStream, memorySourceDecider),
        claim.memory_source_id,
        document.source_uri,
      );
    }

    const itemStream = streams.memoryItem(claim.memory_item_id);
    const loaded = fresh ? empty(memoryItemDecider) : await this.executor.load(itemStream, memoryItemDecider);
    try {
      return await this.writeItem(command, prepared, allowedFlags, claim, itemStream, loaded);
    } catch (error) {
      // Another process took this claim's ids a moment ago and created the item after this one read its stream
      // empty (two ingestions of one new document key at once): this ingestion is a revision of that item.
      if (!(error instanceof ConflictError && error.code === 'memory_item_exists') || loaded.state.exists)
        throw error;
      const reloaded = await this.executor.load(itemStream, memoryItemDecider);
      return this.writeItem(command, prepared, allowedFlags, claim, itemStream, reloaded);
    }
  }

  /**
   * The id of the source the document shares (`source_key`: the records of one file), registered by the first
   * document that names it (a stream keyed by organization and source key; of two registrations at once the first
   * wins and the other reads it). A registered shared source never changes, so this process remembers its id.
   */
  private async sharedSource(command: IngestDocumentCommand): Promise<number> {
    const stream = streams.memorySourceKey(
      createHash('sha256')
        .update(`${command.organizationId}\u0000${command.document.source_key}`)
        .digest('hex'),
    );
    const known = this.sharedSources.get(stream);
    if (known !== undefined) return known;
    const loaded = await this.executor.load(stream, memorySourceDecider);
    // Each document keeps its own URL (MemoryItemCreated.source_uri); the shared source has none.
    const source = loaded.state.registered
      ? loaded.state
      : await this.registerSource(command, stream, loaded, await this.ids.next('memory_source'), null);
    if (source.memory_source_id === null) throw new InternalError('shared source not registered');
    if (this.sharedSources.size >= SHARED_SOURCES_KEPT) this.sharedSources.clear();
    this.sharedSources.set(stream, source.memory_source_id);
    return source.memory_source_id;
  }

  /** Registers the document's source on `stream` (once: a registered one is left as it is); its state after. */
  private async registerSource(
    command: IngestDocumentCommand,
    stream: string,
    loaded: Loaded<{ registered: boolean; memory_source_id: number | null }>,
    memory_source_id: number,
    source_uri: string | null,
  ): Promise<{ registered: boolean; memory_source_id: number | null }> {
    const { organizationId: organization_id, document, context } = command;
    const registered = await this.executor.executeOn(
      stream,
      memorySourceDecider,
      loaded,
      {
        type: 'RegisterSource',
        source: {
          memory_source_id,
          organization_id,
          source_type: 'document',
          label: document.source_label,
          source_uri,
        },
      },
      context,
      { organizationId: organization_id, waitFor: [] },
    );
    return registered.state;
  }

  /**
   * The document's item was erased: the key is claimed again for a new item, so the document is ingested as new
   * (never compared with the erased content, whose digest is kept in clear). Another ingestion may reclaim it first:
   * then its item is this one's too.
   */
  private async reclaim(
    command: IngestDocumentCommand,
    claimStream: string,
    loadedClaim: Loaded<{ claimed: DocumentClaim | null }>,
    erased: DocumentClaim,
  ): Promise<{ claim: DocumentClaim; fresh: boolean }> {
    const memory_item_id = await this.ids.next('memory_item');
    const claimed = await this.executor.executeOn(
      claimStream,
      memoryDocumentDecider,
      loadedClaim,
      {
        type: 'ClaimDocument',
        organization_id: command.organizationId,
        document_key: command.document.document_key,
        memory_item_id,
        memory_source_id: erased.memory_source_id,
        replaces_memory_item_id: erased.memory_item_id,
      },
      command.context,
      { organizationId: command.organizationId, waitFor: [] },
    );
    const claim = claimed.state.claimed;
    if (!claim) throw new InternalError('document claim missing');
    return { claim, fresh: claim.memory_item_id === memory_item_id };
  }

  /** Creates or revises the claimed item with the prepared content ('unchanged' when its content is the same). */
  private async writeItem(
    command: IngestDocumentCommand,
    prepared: PreparedContent,
    allowedFlags: UnsafeFlagsAllowed | null,
    claim: DocumentClaim,
    itemStream: string,
    existing: Loaded<MemoryItemState>,
  ): Promise<IngestDocumentResult> {
    const { organizationId: organization_id, document, context } = command;
    if (existing.state.exists && existing.state.content_sha256 === prepared.content_sha256) {
      return {
        ...claim,
        revision: existing.state.revision,
        status: 'unchanged',
        chunks: existing.state.chunks.length,
      };
    }
    const content = {
      ...(await this.writer.withChunkIds(prepared)),
      ...(allowedFlags ? { unsafe_flags_allowed: allowedFlags } : {}),
    };
    const result = await this.writer.write(
      itemStream,
      existing,
      existing.state.exists
        ? { type: 'ReviseMemoryItem', organization_id, content }
        : {
            type: 'CreateMemoryItem',
            item: {
              ...content,
              memory_item_id: claim.memory_item_id,
              memory_source_id: claim.memory_source_id,
              organization_id,
              revision: 1,
              type: document.type,
              audience: document.audience,
              authority_level: document.authority_level,
              visibility: 'organization_internal',
              owner_client_key: null,
              source_uri: document.source_uri,
            },
          },
      context,
      {
        organizationId: organization_id,
        waitFor: command.options.waitForReadModels === false ? [] : undefined,
      },
    );
    if (!result.state.exists) throw new InternalError('memory item vanished');
    return {
      ...claim,
      revision: result.state.revision,
      status: result.events.length === 0 ? 'unchanged' : existing.state.exists ? 'revised' : 'created',
      chunks: result.state.chunks.length,
    };
  }

  /** Refuses a document with a finding the operator did not allow; the allowed findings, or null when none. */
  private async scan(command: IngestDocumentCommand): Promise<UnsafeFlagsAllowed | null> {
    const { document } = command;
    const fields: Record<string, string> = { title: document.title, content: document.content };
    if (document.summary !== null) fields.summary = document.summary;
    if (document.source_uri !== null) fields.source_uri = document.source_uri;
    const flags = await this.scanner.scan(fields);
    if (flags.length === 0) return null;
    const allowed = command.options.allowFlags ?? [];
    const refused = flags.filter((flag) => !allowed.includes(flag.kind) && !allowed.includes(flag.rule));
    if (refused.length > 0) throw new UnsafeContentError(refused);
    return {
      allowed_by: command.context.actor,
      allowed: [...allowed],
      flags: flags.map(({ field, kind, rule, line, column }) => ({ field, kind, rule, line, column })),
    };
  }
}

/** A stream known not to exist, without reading it. */
function empty<C, S, E extends DomainEvent>(decider: Decider<C, S, E>): Loaded<S> {
  return { state: decider.initialState(), revision: null, events: [] };
}

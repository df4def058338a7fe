import { Inject, Injectable } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { Clock } from '../../common/clock';
import { streams } from '../../events/domain-event';
import type { MemoryChunk } from '../../events/memory/memory.events';
import type { ConnectorPrincipal } from '../../http/auth/connector-principal';
import { READ_STORE, type ReadStore } from '../../infrastructure/read-store/read-store.port';
import {
  MEMORY_CORPUS,
  MEMORY_ITEMS,
  type MemoryCorpusDocument,
  type MemoryItemDocument,
  type MemoryItemFields,
} from '../../projections/memory.projection';
import { SearchMemoryQuery, type SearchMemoryResult } from '../../queries/memory/search-memory.query';
import { recallTraceDecider } from '../memory/recall-trace.decider';
import { recalledSearch, RecordRecallTraceCommand } from '../memory/record-recall-trace.command';
import type { CommandContext } from '../shared/command-context';
import { StreamCommandExecutor } from '../shared/stream-command-executor';
import { freshnessOf } from '../../queries/memory/freshness';
import {
  isGroundingEligible,
  isTraceVerified,
  STALE_LIMITATION,
  toEvidence,
  type EvidenceItem,
  type ReplyReference,
} from './reply-evidence';

/** Items retrieved per reply (evidence candidates). */
export const REPLY_EVIDENCE_LIMIT = 8;

export interface Retrieved {
  trace_id: number;
  evidence: EvidenceItem[];
  corpus_revision: string;
  index_revision: string;
  evidence_as_of: string;
}

/**
 * Customer-safe evidence for a reply: a recall search over the organization's internal memory (never a tool's
 * private notes), recorded as a recall trace like any connector search; only grounding-eligible items become
 * evidence, each checked against the trace as recorded in its stream.
 */
@Injectable()
export class ReplyRetrieval {
  constructor(
    private readonly queries: QueryBus,
    private readonly commands: CommandBus,
    private readonly executor: StreamCommandExecutor,
    @Inject(READ_STORE) private readonly readStore: ReadStore,
    private readonly clock: Clock,
  ) {}

  async retrieve(
    connector: ConnectorPrincipal,
    question: string,
    context: CommandContext,
  ): Promise<Retrieved> {
    const found = await this.queries.execute<SearchMemoryQuery, SearchMemoryResult>(
      new SearchMemoryQuery(connector, question, REPLY_EVIDENCE_LIMIT, 'organization_internal', true),
    );
    const trace_id = await this.commands.execute<RecordRecallTraceCommand, number>(
      new RecordRecallTraceCommand(
        connector,
        recalledSearch(question, 'organization_internal', REPLY_EVIDENCE_LIMIT, found, 'reply'),
        context,
      ),
    );
    const trace = (await this.executor.load(streams.recallTrace(trace_id), recallTraceDecider)).state.trace;
    const nowMs = this.clock.nowMs();
    const scope = { organization_id: connector.organization_id, connector_id: connector.connector_id };
    const eligible = found.items.filter((ranked) => isGroundingEligible(ranked.item, nowMs));
    const chunks = await this.chunksOf(eligible.map((ranked) => ranked.item));
    const evidence = eligible.map((ranked) =>
      toEvidence(ranked, chunks.get(ranked.item.memory_item_id) ?? [], trace, scope, nowMs),
    );
    const corpus = await this.readStore.get<MemoryCorpusDocument>(
      MEMORY_CORPUS,
      String(connector.organization_id),
    );
    return {
      trace_id,
      evidence,
      corpus_revision: corpus?.corpus_revision ?? 'corpus_empty',
      index_revision: found.index_revision,
      evidence_as_of: new Date(nowMs).toISOString(),
    };
  }

  /**
   * The chunks (with their text) of each item at the revision the search ranked, read for the evidence only: the
   * search keeps items without text. An item revised in between has none here (its excerpt stands in), so no
   * evidence ever quotes another revision than its reference names.
   */
  private async chunksOf(items: readonly MemoryItemFields[]): Promise<Map<number, MemoryChunk[]>> {
    const docs = await this.readStore.getMany<MemoryItemDocument>(
      MEMORY_ITEMS,
      items.map((item) => String(item.memory_item_id)),
    );
    const chunks = new Map<number, MemoryChunk[]>();
    for (const item of items) {
      const doc = docs.get(String(item.memory_item_id));
      if (doc !== undefined && doc.revision === item.revision) chunks.set(item.memory_item_id, doc.chunks);
    }
    return chunks;
  }

  /**
   * The cited items that changed since retrieval (revised, archived, no longer eligible, or, when the content
   * digest is given, with other content), read from their projections at commit time. Empty when all still stand.
   */
  async changedSince(
    cited: ReadonlyArray<{ memory_item_id: number; revision: number; content_sha256?: string }>,
  ): Promise<number[]> {
    const items = await this.readStore.getMany<MemoryItemDocument>(
      MEMORY_ITEMS,
      cited.map((c) => String(c.memory_item_id)),
    );
    const nowMs = this.clock.nowMs();
    return cited
      .filter((c) => {
        const item = items.get(String(c.memory_item_id));
        return (
          !item ||
          item.revision !== c.revision ||
          (c.content_sha256 !== undefined && item.content_sha256 !== c.content_sha256) ||
          !isGroundingEligible(item, nowMs)
        );
      })
      .map((c) => c.memory_item_id);
  }

  /**
   * The references with their freshness as of now (status, and the stale limitation with it), read from the items'
   * projections: a replay says what is true of the evidence today, not what was at generation. Null when an item
   * is gone.
   */
  async currentFreshness<
    R extends {
      memory_item_id: number;
      freshness: { status: string; effective_at: string | null; expires_at: string | null };
      limitations: unknown[];
    },
  >(references: readonly R[]): Promise<R[] | null> {
    const items = await this.readStore.getMany<MemoryItemDocument>(
      MEMORY_ITEMS,
      references.map((r) => String(r.memory_item_id)),
    );
    const nowMs = this.clock.nowMs();
    const current: R[] = [];
    for (const reference of references) {
      const item = items.get(String(reference.memory_item_id));
      if (item === undefined) return null;
      const status = freshnessOf(item, nowMs);
      const limitations = reference.limitations.filter((l) => l !== STALE_LIMITATION);
      current.push({
        ...reference,
        freshness: { ...reference.freshness, status },
        limitations: (status === 'stale'
          ? [STALE_LIMITATION, ...limitations]
          : limitations) as R['limitations'],
      });
    }
    return current;
  }

  /**
   * The references whose `trace_verified` the recorded recall trace does not bear out (the trace of this
   * organization and connector must hold the item at that revision with those chunks), by reference id.
   */
  async unverifiedByTrace(
    traceId: number,
    scope: { organization_id: number; connector_id: number },
    references: ReadonlyArray<
      Pick<ReplyReference, 'reference_id' | 'memory_item_id' | 'memory_chunk_ids' | 'trace_verified'> & {
        revision: number;
      }
    >,
  ): Promise<string[]> {
    const trace = (await this.executor.load(streams.recallTrace(traceId), recallTraceDecider)).state.trace;
    const owner = { organization_id: scope.organization_id, connector_id: scope.connector_id };
    return references
      .filter(
        (r) => isTraceVerified(trace, owner, r, r.memory_chunk_ids) !== r.trace_verified || !r.trace_verified,
      )
      .map((r) => r.reference_id);
  }
}

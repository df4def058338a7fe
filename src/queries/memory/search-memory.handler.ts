import { Inject } from '@nestjs/common';
import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { Clock } from '../../common/clock';
import type { CairnConfig } from '../../config/config';
import { CONFIG } from '../../core.module';
import { MAX_GET_MANY, READ_STORE, type ReadStore } from '../../infrastructure/read-store/read-store.port';
import {
  SEARCH_COLLAPSE_FIELD,
  SEARCH_EXPIRY_FIELD,
  SEARCH_INDEX,
  type SearchFilter,
  type SearchHit,
  type SearchIndex,
} from '../../infrastructure/search/search-index.port';
import {
  MEMORY_CORPUS,
  MEMORY_ITEMS,
  type MemoryCorpusDocument,
  type MemoryItemDocument,
  type MemoryItemFields,
} from '../../projections/memory.projection';
import { visibleTo } from './memory-item-view';
import { SearchMemoryQuery, type RankedMemoryItem, type SearchMemoryResult } from './search-memory.query';
import { RevisionCache } from './revision-cache';
import { UsageCache } from './usage-cache';
import { fuseRankings, type RelevanceMethod } from './rank-fusion';
import { MAX_USAGE_MULTIPLIER, usageMultiplier } from './usage-ranking';
import { VectorCandidates } from './vector-candidates';
import { fillResultMembers, type LexicalAsk } from './result-members';
import { OthersPrivateItems } from './others-private-items';
import { OwnPrivateItems } from './own-private-items';

/** A chunk the vector index found. */
type SemanticHit = Awaited<ReturnType<VectorCandidates['search']>>[number];

/** An item found by the index (and/or the vectors): its matching chunks, score and best lexical hit. */
interface Candidate {
  chunk_ids: number[];
  score: number;
  best: SearchHit | null;
}

/**
 * An item as searches keep it: without its text (results never show it; replies read the chunks they quote).
 * Copied field by field into one object shape: the objects a rest pattern (`{ content, chunks, ...fields }`)
 * left behind were slow to read (the visibility check of a limit-100 search, ~600 cached items, took ~0.35 ms
 * in a CPU profile).
 */
function withoutText(item: MemoryItemDocument | undefined): MemoryItemFields | null {
  if (item === undefined) return null;
  return {
    id: item.id,
    memory_item_id: item.memory_item_id,
    memory_source_id: item.memory_source_id,
    organization_id: item.organization_id,
    type: item.type,
    title: item.title,
    summary: item.summary,
    content_sha256: item.content_sha256,
    source_type: item.source_type,
    source_label: item.source_label,
    source_uri: item.source_uri,
    source_date: item.source_date,
    effective_at: item.effective_at,
    expires_at: item.expires_at,
    audience: item.audience,
    authority_level: item.authority_level,
    visibility: item.visibility,
    owner_client_key: item.owner_client_key,
    review_status: item.review_status,
    lifecycle_status: item.lifecycle_status,
    revision: item.revision,
    revision_date: item.revision_date,
    created_at: item.created_at,
    updated_at: item.updated_at,
  };
}

/** The `limit`-th highest score of `ranked` (which holds at least `limit` entries). */
function limitthScore(ranked: ReadonlyArray<{ score: number }>, limit: number): number {
  return ranked.map((entry) => entry.score).sort((a, b) => b - a)[limit - 1];
}

/** The most matching chunks a result names (`memory_chunk_ids`, best first). */
const CHUNKS_PER_RESULT = 10;
/** The most items (lexical) or chunks (semantic) a search asks an index for. */
const MAX_CANDIDATES = 1000;
/**
 * With embeddings on, lexical candidates per result: reciprocal rank fusion fuses the best limit × 10 items of
 * the lexical ranking with the best limit × 10 chunks of the semantic one.
 */
const FUSED_PER_RESULT = 10;
/** When the candidates asked for did not settle the results (see execute), the next ask is this many times larger. */
const CANDIDATE_GROWTH = 4;

/**
 * BM25F over chunks (a title word weighs CAIRN_SEARCH_TITLE_BOOST body words) in the organization's scope,
 * grouped into items (an item scores as its best chunk), re-ranked by the usage signal. Reads only the search
 * index and read models.
 */
@QueryHandler(SearchMemoryQuery)
export class SearchMemoryHandler implements IQueryHandler<SearchMemoryQuery, SearchMemoryResult> {
  /** Items without their text, per organization, valid for one corpus `index_revision`. */
  private readonly items = new RevisionCache<MemoryItemFields>();
  private readonly usage: UsageCache;
  private readonly ownPrivate: OwnPrivateItems;
  private readonly othersPrivate: OthersPrivateItems;

  constructor(
    @Inject(SEARCH_INDEX) private readonly index: SearchIndex,
    @Inject(READ_STORE) private readonly readStore: ReadStore,
    private readonly clock: Clock,
    private readonly vectors: VectorCandidates,
    @Inject(CONFIG) private readonly config: Pick<CairnConfig, 'searchTitleBoost'>,
  ) {
    this.usage = new UsageCache(readStore);
    this.ownPrivate = new OwnPrivateItems(readStore);
    this.othersPrivate = new OthersPrivateItems(readStore);
  }

  async execute(query: SearchMemoryQuery): Promise<SearchMemoryResult> {
    const { connector } = query;
    const organization = String(connector.organization_id);
    const filters: Record<string, SearchFilter> = {
      // The field the embedded index keeps per document: expired chunks are skipped before they are scored.
      [SEARCH_EXPIRY_FIELD]: { gt: this.clock.nowMs(), or_null: true },
    };
    let anyOf: Array<Record<string, SearchFilter>> | undefined;
    if (query.visibility === 'organization_internal') filters.visibility = 'organization_internal';
    else if (query.visibility === 'tool_private')
      Object.assign(filters, { visibility: 'tool_private', owner_client_key: connector.client_key });
    else
      anyOf = [
        { visibility: 'organization_internal' },
        { visibility: 'tool_private', owner_client_key: connector.client_key },
      ];

    // The query's embedding is asked for before the lexical search and awaited after it: the model call's round
    // trip overlaps the index's work. Should the lexical search throw first, the pending rejection is handled.
    const semanticPending = this.semanticHits(query);
    semanticPending.catch(() => undefined);
    if (this.vectors.enabled) await new Promise<void>((resolve) => setImmediate(resolve));
    let semantic: SemanticHit[] | null = null;
    let wanted = this.vectors.enabled ? query.limit * FUSED_PER_RESULT : query.limit;
    const lexical: LexicalAsk = {
      organization_id: organization,
      text: query.query,
      filters,
      ...(anyOf ? { any_of: anyOf } : {}),
      title_boost: this.config.searchTitleBoost,
    };
    // Fused with embeddings, most lexical candidates only lend their rank: their matching chunks are read for the
    // results alone (fillResultMembers), not for limit × 10 items.
    const membersLater = this.vectors.enabled;
    const restriction = await this.restriction(query);
    for (;;) {
      wanted = Math.min(MAX_CANDIDATES, wanted);
      const hits = await this.index.search({
        ...lexical,
        limit: wanted,
        // One hit per item (its best chunk) with its matching chunks.
        collapse: {
          field: SEARCH_COLLAPSE_FIELD,
          max_members: membersLater ? 1 : CHUNKS_PER_RESULT,
          ...restriction,
        },
      });
      semantic ??= await semanticPending;
      const ranked = await this.rank(query, hits, semantic);
      // Settled: the index had no more items, or the results' bar proves no later item could enter them. Fused
      // with embeddings, the lexical ranking's depth is part of the definition (the best limit × 10 items).
      if (ranked.settled || semantic.length > 0 || hits.length < wanted || wanted >= MAX_CANDIDATES) {
        const result = this.respond(query, ranked);
        if (membersLater) await fillResultMembers(this.index, lexical, result.items, CHUNKS_PER_RESULT);
        return result;
      }
      wanted *= CANDIDATE_GROWTH;
    }
  }

  /**
   * The index's items (best first) fused with the semantic candidates, checked against the read model and
   * re-ranked by usage. `settled`: the results cannot change with more lexical candidates (a candidate's score
   * times the largest usage multiplier fell under the `limit`-th result's score before the candidates ran out).
   */
  private async rank(
    query: SearchMemoryQuery,
    hits: SearchHit[],
    semantic: SemanticHit[],
  ): Promise<{
    ranked: Array<RankedMemoryItem & { best: SearchHit | null }>;
    settled: boolean;
    indexRevision: string;
  }> {
    const { connector } = query;
    const organization = String(connector.organization_id);
    const grouped = new Map<number, Candidate>();
    for (const hit of hits) {
      const itemId = Number(hit.fields.memory_item_id);
      const members = hit.members ?? [{ id: hit.id, score: hit.score, fields: hit.fields }];
      const chunkIds = members.map((member) => Number(member.fields.memory_chunk_id));
      const entry = grouped.get(itemId);
      // One hit per item from a collapsing index; the first (best) wins should an index repeat one.
      if (entry === undefined) grouped.set(itemId, { chunk_ids: chunkIds, score: hit.score, best: hit });
    }

    const methods = this.fuseWithVectors(grouped, semantic);
    const corpus = await this.readStore.get<MemoryCorpusDocument>(MEMORY_CORPUS, organization);
    const indexRevision = corpus?.index_revision ?? 'idx_empty';
    const cached = this.items.at(connector.organization_id, indexRevision);
    const candidates = [...grouped].sort((a, b) => b[1].score - a[1].score || a[0] - b[0]);
    const usage = await this.usage.snapshot(connector.organization_id);
    // The most a usage multiplier can lift a score: exactly 1 while the organization has no usage report.
    const ceiling = usage.anyUsage ? MAX_USAGE_MULTIPLIER : 1;
    const ranked: Array<RankedMemoryItem & { best: SearchHit | null }> = [];
    // The limit-th best final score so far (0 until `limit` items passed): a candidate whose score times the
    // ceiling is below it can never enter the results, nor can any after it (candidates go best first).
    let bar = 0;
    let next = 0;
    let settled = false;
    reading: while (next < candidates.length) {
      // Batches of candidates: the items not cached in one read, their usage counts from the usage cache
      // (counts read only for items it does not know). The first batch holds every candidate that can reach the
      // results if the first `limit` are visible; later ones only when visibility dropped some.
      let size = query.limit;
      if (next === 0) {
        const reach = (candidates[Math.min(candidates.length, query.limit) - 1]?.[1].score ?? 0) / ceiling;
        while (size < candidates.length && candidates[size][1].score >= reach) size++;
      }
      const batch = candidates.slice(next, (next += Math.min(Math.max(size, 20), MAX_GET_MANY)));
      const missing = batch.map(([id]) => id).filter((id) => !cached.has(id));
      if (missing.length > 0) {
        // Without their chunks (packed: never unpacked), which search results do not carry.
        const readItems = await this.readStore.getMany<MemoryItemDocument>(
          MEMORY_ITEMS,
          missing.map(String),
          {
            packed: false,
          },
        );
        for (const id of missing) cached.set(id, withoutText(readItems.get(String(id))));
      }
      const usages = await usage.counts(batch.map(([id]) => id));
      for (const [itemId, entry] of batch) {
        if (entry.score * ceiling < bar) {
          settled = true;
          break reading;
        }
        const item = cached.get(itemId);
        // Defense in depth: the index is already scoped, the read model decides.
        if (!item || !visibleTo(item, connector.organization_id, connector.client_key)) continue;
        const counts = usages.get(itemId);
        const score = entry.score * usageMultiplier(counts?.used_count ?? 0, counts?.ignored_count ?? 0);
        ranked.push({
          item,
          chunk_ids: entry.chunk_ids,
          score,
          excerpt: '',
          best: entry.best,
          method: methods.get(itemId) ?? 'lexical',
        });
      }
      if (ranked.length >= query.limit) bar = limitthScore(ranked, query.limit);
    }
    // Every candidate read and the results full: a later lexical item (no higher than the last candidate) could
    // still enter only if its score times the ceiling reached the bar (without usage: never, ties aside).
    const last = candidates[candidates.length - 1]?.[1].score ?? 0;
    if (!settled && ranked.length >= query.limit && (ceiling === 1 || last * ceiling < bar)) settled = true;
    return { ranked, settled, indexRevision };
  }

  private respond(
    query: SearchMemoryQuery,
    {
      ranked,
      indexRevision,
    }: { ranked: Array<RankedMemoryItem & { best: SearchHit | null }>; indexRevision: string },
  ): SearchMemoryResult {
    ranked.sort((a, b) => b.score - a.score || a.item.memory_item_id - b.item.memory_item_id);
    const top = ranked.slice(0, query.limit);
    // Excerpts (highlighting is not free) only when asked, and only for what is returned.
    if (query.withExcerpts) {
      for (const result of top) result.excerpt = (result.best?.highlights[0] ?? '').replace(/[«»]/g, '');
    }
    return { items: top.map(({ best: _best, ...result }) => result), index_revision: indexRevision };
  }

  /**
   * What the index may skip without reading, at the corpus revision searched (the filters still decide): a
   * tool_private search is restricted to the connector's own active items (OwnPrivateItems; unrestricted when it
   * has more than a search can be restricted to), any other search excludes the private items it may not see
   * (OthersPrivateItems).
   */
  private async restriction({
    connector,
    visibility,
  }: SearchMemoryQuery): Promise<{ values?: number[]; excluded_values?: ReadonlySet<number> }> {
    const revision = async (): Promise<string> => {
      const organization = String(connector.organization_id);
      const corpus = await this.readStore.get<MemoryCorpusDocument>(MEMORY_CORPUS, organization);
      return corpus?.index_revision ?? 'idx_empty';
    };
    if (visibility === 'tool_private') {
      const values = await this.ownPrivate.of(
        connector.organization_id,
        connector.client_key,
        await revision(),
      );
      return values === null ? {} : { values };
    }
    // The corpus revision is read only when the list may be brought up to date (at most once a second).
    const excluded = await this.othersPrivate.of(
      connector.organization_id,
      visibility === 'organization_internal' ? null : connector.client_key,
      revision,
      this.clock.nowMs(),
    );
    return excluded === undefined ? {} : { excluded_values: excluded };
  }

  /** With embeddings on: the query's nearest chunks (none when off), asked once per search. */
  private async semanticHits(query: SearchMemoryQuery): Promise<SemanticHit[]> {
    if (!this.vectors.enabled) return [];
    const { connector } = query;
    return this.vectors.search(
      query.query,
      {
        organizationId: connector.organization_id,
        clientKey: connector.client_key,
        visibility: query.visibility,
        nowMs: this.clock.nowMs(),
      },
      Math.min(MAX_CANDIDATES, query.limit * CHUNKS_PER_RESULT),
    );
  }

  /**
   * Adds the semantic candidates to `grouped` and replaces every score by its reciprocal rank fusion score.
   * Returns each item's method (none without semantic candidates).
   */
  private fuseWithVectors(
    grouped: Map<number, Candidate>,
    semantic: SemanticHit[],
  ): Map<number, RelevanceMethod> {
    if (semantic.length === 0) return new Map();
    // Items in the order of their best chunk: a Set keeps the order of first insertion, one lookup per hit.
    const semanticItems = new Set<number>();
    for (const hit of semantic) {
      const entry = grouped.get(hit.memory_item_id);
      semanticItems.add(hit.memory_item_id);
      if (!entry) grouped.set(hit.memory_item_id, { chunk_ids: [hit.memory_chunk_id], score: 0, best: null });
      else if (!entry.chunk_ids.includes(hit.memory_chunk_id)) entry.chunk_ids.push(hit.memory_chunk_id);
    }
    const lexicalOrder = [...grouped.keys()].filter((id) => (grouped.get(id)?.score ?? 0) > 0);
    const methods = new Map<number, RelevanceMethod>();
    for (const fused of fuseRankings(lexicalOrder, [...semanticItems])) {
      const entry = grouped.get(fused.id);
      if (entry) entry.score = fused.score;
      methods.set(fused.id, fused.method);
    }
    return methods;
  }
}

import type { ConnectorPrincipal } from '../../http/auth/connector-principal';

export class SearchMemoryQuery {
  constructor(
    readonly connector: ConnectorPrincipal,
    readonly query: string,
    readonly limit: number,
    /** null: the organization's internal items plus this connector's own tool_private items. */
    readonly visibility: 'tool_private' | 'organization_internal' | null,
    /**
     * Whether each result needs its excerpt (context packages, reply evidence). Highlighting reads and scans every
     * returned chunk's text, a third of a plain search's work, so it is done only when asked; otherwise `excerpt`
     * is ''.
     */
    readonly withExcerpts: boolean,
  ) {}
}

export interface RankedMemoryItem {
  item: import('../../projections/memory.projection').MemoryItemFields;
  /** Matched chunks, best first. */
  chunk_ids: number[];
  score: number;
  /** The best chunk's first highlight ('' when the query did not ask for excerpts or nothing was highlighted). */
  excerpt: string;
  /** What ranked it: BM25, the embedding, or both (reciprocal rank fusion). */
  method: import('./rank-fusion').RelevanceMethod;
}

export interface SearchMemoryResult {
  items: RankedMemoryItem[];
  index_revision: string;
}

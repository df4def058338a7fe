import type { RecallPurpose, RecallResultColumns } from '../../events/memory/recall.events';
import { asResultColumns } from '../../events/memory/recall-results';
import type { ConnectorPrincipal } from '../../http/auth/connector-principal';
import type { SearchMemoryResult } from '../../queries/memory/search-memory.query';
import type { CommandContext } from '../shared/command-context';

export interface RecalledSearch {
  query: string;
  visibility: 'tool_private' | 'organization_internal' | null;
  limit: number;
  result_columns: RecallResultColumns;
  index_revision: string;
  purpose: RecallPurpose;
}

export class RecordRecallTraceCommand {
  constructor(
    readonly connector: ConnectorPrincipal,
    readonly search: RecalledSearch,
    readonly context: CommandContext,
  ) {}
}

/** What a trace records of a search: its arguments and exactly what it returned. */
export function recalledSearch(
  query: string,
  visibility: RecalledSearch['visibility'],
  limit: number,
  found: SearchMemoryResult,
  purpose: RecallPurpose,
): RecalledSearch {
  return {
    query,
    visibility,
    limit,
    index_revision: found.index_revision,
    purpose,
    result_columns: asResultColumns(
      found.items.map((ranked) => ({
        memory_item_id: ranked.item.memory_item_id,
        memory_source_id: ranked.item.memory_source_id,
        revision: ranked.item.revision,
        memory_chunk_ids: ranked.chunk_ids,
        score: ranked.score,
        method: ranked.method,
      })),
    ),
  };
}

import type {
  AuthorityLevel,
  Audience,
  MemoryChunk,
  MemoryItemEvent,
  MemorySourceRegistered,
  SourceType,
  Visibility,
} from '../events/memory/memory.events';
import type { RecordedEvent } from '../infrastructure/event-store/event-store.port';
import type { Projection, ProjectionContext } from './projection';

export const MEMORY_SOURCES = 'memory_sources';
export const MEMORY_ITEMS = 'memory_items';

export interface MemorySourceDocument {
  id: string;
  memory_source_id: number;
  organization_id: number;
  source_type: SourceType;
  label: string;
  source_uri: string | null;
  [key: string]: unknown;
}

export interface MemoryItemDocument {
  id: string;
  memory_item_id: number;
  memory_source_id: number;
  organization_id: number;
  type: string;
  title: string;
  summary: string;
  content: string;
  content_sha256: string;
  source_type: SourceType;
  source_label: string;
  source_uri: string | null;
  source_date: string | null;
  effective_at: string | null;
  expires_at: string | null;
  audience: Audience;
  authority_level: AuthorityLevel;
  visibility: Visibility;
  owner_client_key: string | null;
  review_status: 'confirmed';
  lifecycle_status: 'active' | 'archived';
  revision: number;
  /** When the current revision was recorded. */
  revision_date: string;
  chunks: MemoryChunk[];
  created_at: string;
  updated_at: string;
  [key: string]: unknown;
}

/** Search documents are chunks: `chunk-<id>`. */
export function chunkDocumentId(chunkId: number): string {
  return `chunk-${chunkId}`;
}

/**
 * Memory as connectors and replies read it: sources, items (current revision), and one search document per
 * chunk of every active item. A revision replaces the item's chunks; archiving removes them from search.
 */
export const memoryProjection: Projection = {
  name: 'memory',
  version: 1,
  usesSearchIndex: true,
  collections: [
    { name: MEMORY_SOURCES, indexes: ['organization_id'] },
    { name: MEMORY_ITEMS, indexes: ['organization_id', 'memory_source_id', 'lifecycle_status'] },
  ],
  eventTypes: new Set<string>([
    'MemorySourceRegistered',
    'MemoryItemCreated',
    'MemoryItemRevised',
    'MemoryItemArchived',
  ]),
  async apply(recorded: RecordedEvent, context: ProjectionContext) {
    const at = recorded.metadata.occurred_at;
    if (recorded.type === 'MemorySourceRegistered') {
      const data = (recorded as unknown as MemorySourceRegistered).data;
      context.put(MEMORY_SOURCES, { id: String(data.memory_source_id), ...data });
      return;
    }
    const event = recorded as unknown as MemoryItemEvent;
    const id = String(event.data.memory_item_id);
    if (event.type === 'MemoryItemCreated') {
      const source = await context.get<MemorySourceDocument>(
        MEMORY_SOURCES,
        String(event.data.memory_source_id),
      );
      const item: MemoryItemDocument = {
        id,
        ...event.data,
        source_type: source?.source_type ?? 'document',
        source_label: source?.label ?? '',
        review_status: 'confirmed',
        lifecycle_status: 'active',
        revision_date: at,
        created_at: at,
        updated_at: at,
      };
      context.put(MEMORY_ITEMS, item);
      indexChunks(context, item);
      return;
    }
    const current = await context.get<MemoryItemDocument>(MEMORY_ITEMS, id);
    if (!current) return;
    for (const chunk of current.chunks) context.removeDocument(chunkDocumentId(chunk.memory_chunk_id));
    if (event.type === 'MemoryItemArchived') {
      context.put(MEMORY_ITEMS, { ...current, lifecycle_status: 'archived', updated_at: at });
      return;
    }
    const revised: MemoryItemDocument = { ...current, ...event.data, revision_date: at, updated_at: at };
    context.put(MEMORY_ITEMS, revised);
    if (revised.lifecycle_status === 'active') indexChunks(context, revised);
  },
};

function indexChunks(context: ProjectionContext, item: MemoryItemDocument): void {
  for (const chunk of item.chunks) {
    context.indexDocument({
      id: chunkDocumentId(chunk.memory_chunk_id),
      organization_id: String(item.organization_id),
      title: chunk.heading ? `${item.title} — ${chunk.heading}` : item.title,
      body: chunk.text,
      fields: {
        memory_item_id: item.memory_item_id,
        memory_source_id: item.memory_source_id,
        memory_chunk_id: chunk.memory_chunk_id,
        ordinal: chunk.ordinal,
        revision: item.revision,
        type: item.type,
        audience: item.audience,
        authority_level: item.authority_level,
        visibility: item.visibility,
        owner_client_key: item.owner_client_key,
        expires_at_ms: item.expires_at === null ? null : Date.parse(item.expires_at),
      },
    });
  }
}

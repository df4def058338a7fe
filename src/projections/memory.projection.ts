import type {
  AuthorityLevel,
  Audience,
  MemoryChunk,
  MemoryItemEvent,
  MemorySourceRegistered,
  SourceType,
  Visibility,
} from '../events/memory/memory.events';
import { createHash } from 'node:crypto';
import type { RecordedEvent } from '../infrastructure/event-store/event-store.port';
import { assembleContent, layoutOf, type ContentLayout } from './content-layout';
import { completeContent, dropStagedParts, stagePart } from './content-part-staging';
import { erasedMemoryItem } from './erased-subjects';
import type { Projection, ProjectionContext } from './projection';

export const MEMORY_SOURCES = 'memory_sources';
export const MEMORY_ITEMS = 'memory_items';
export const MEMORY_CORPUS = 'memory_corpus';
/** Parts of revisions not completed yet (content-part-staging.ts). */
const MEMORY_ITEM_PARTS = 'memory_item_parts';
/**
 * 3: an item keeps its chunks and a content layout, not its content (content-layout.ts). 4: items' chunks and
 * staged parts' text are packed fields (read-store.port.ts CollectionOptions): a build of version 3 reads them as
 * null, so it must stand by (the runner's version check) rather than run beside this one; an older read model is
 * rebuilt, which packs every row.
 */
const MEMORY_PROJECTION_VERSION = 4;

/**
 * Per organization: `corpus_revision` moves exactly when the set of (item, revision, lifecycle) changes (an
 * order-independent XOR of per-item digests, so it is the same however the events are replayed);
 * `index_revision` also moves when the index is built by another projection version.
 */
export interface MemoryCorpusDocument {
  id: string;
  organization_id: number;
  digest: string;
  corpus_revision: string;
  index_revision: string;
  updated_at: string;
  [key: string]: unknown;
}

export interface MemorySourceDocument {
  id: string;
  memory_source_id: number;
  organization_id: number;
  source_type: SourceType;
  label: string;
  source_uri: string | null;
  [key: string]: unknown;
}

/**
 * An item's fields without its text (content and chunks): what searches rank, show and record, and keep cached
 * per process, so a cache of many items holds no text (replies read the chunks they quote).
 */
export interface MemoryItemFields {
  id: string;
  memory_item_id: number;
  memory_source_id: number;
  organization_id: number;
  type: string;
  title: string;
  summary: string;
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
  created_at: string;
  updated_at: string;
}

/**
 * An item as the read model stores it: its text once, as chunks, and the layout that rebuilds its content from
 * them (itemContent()).
 */
export interface MemoryItemDocument extends MemoryItemFields {
  chunks: MemoryChunk[];
  content_layout: ContentLayout;
  [key: string]: unknown;
}

/** The item's content, byte for byte as it was ingested or revised. */
export function itemContent(item: Pick<MemoryItemDocument, 'chunks' | 'content_layout'>): string {
  return assembleContent(item.content_layout, item.chunks);
}

/** Event data with its content replaced by the layout that rebuilds it from its chunks. */
function storedText<T extends { content: string; chunks: MemoryChunk[] }>(
  data: T,
): Omit<T, 'content'> & { content_layout: ContentLayout } {
  const { content, ...rest } = data;
  return { ...rest, content_layout: layoutOf(content, data.chunks) };
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
  version: MEMORY_PROJECTION_VERSION,
  usesSearchIndex: true,
  batchesGrowWhileLagging: true,
  collections: [
    { name: MEMORY_SOURCES, indexes: ['organization_id'] },
    {
      name: MEMORY_ITEMS,
      // owner_client_key: a connector's own items (a tool_private search is restricted to them, own-private-items.ts);
      // null for every ingested document, so indexed where set.
      indexes: ['organization_id', 'lifecycle_status', 'owner_client_key'],
      sparse: ['owner_client_key'],
      packed: ['chunks'],
    },
    { name: MEMORY_CORPUS, indexes: [] },
    { name: MEMORY_ITEM_PARTS, indexes: [], packed: ['content', 'chunks'] },
  ],
  eventTypes: new Set<string>([
    'MemorySourceRegistered',
    'MemoryContentPartRecorded',
    'MemoryItemCreated',
    'MemoryItemRevised',
    'MemoryItemArchived',
    'SubjectErased',
  ]),
  async apply(recorded: RecordedEvent, context: ProjectionContext) {
    const at = recorded.metadata.occurred_at;
    if (recorded.type === 'SubjectErased') {
      const erased = erasedMemoryItem(recorded);
      if (erased) {
        await eraseItem(context, String(erased.memory_item_id), at);
        await dropStagedParts(context, MEMORY_ITEM_PARTS, erased.memory_item_id);
      }
      return;
    }
    if (recorded.type === 'MemorySourceRegistered') {
      const data = (recorded as unknown as MemorySourceRegistered).data;
      context.put(MEMORY_SOURCES, { id: String(data.memory_source_id), ...data });
      return;
    }
    const event = recorded as unknown as MemoryItemEvent;
    const id = String(event.data.memory_item_id);
    if (event.type === 'MemoryContentPartRecorded') {
      await stagePart(context, MEMORY_ITEM_PARTS, event.data);
      return;
    }
    if (event.type === 'MemoryItemCreated') {
      const data = await completeContent(context, MEMORY_ITEM_PARTS, event.data);
      const source = await context.get<MemorySourceDocument>(MEMORY_SOURCES, String(data.memory_source_id));
      const item: MemoryItemDocument = {
        id,
        ...storedText(data),
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
      await moveCorpus(context, null, item, at);
      return;
    }
    const current = await context.get<MemoryItemDocument>(MEMORY_ITEMS, id);
    if (!current) return;
    for (const chunk of current.chunks) context.removeDocument(chunkDocumentId(chunk.memory_chunk_id));
    if (event.type === 'MemoryItemArchived') {
      const archived: MemoryItemDocument = { ...current, lifecycle_status: 'archived', updated_at: at };
      context.put(MEMORY_ITEMS, archived);
      await moveCorpus(context, current, archived, at);
      return;
    }
    // Which correction a revision applied is the write side's concern (memoryItemDecider), not the read model's.
    const { proposal_id: _proposal, ...content } = await completeContent(
      context,
      MEMORY_ITEM_PARTS,
      event.data,
    );
    const revised: MemoryItemDocument = {
      ...current,
      ...storedText(content),
      revision_date: at,
      updated_at: at,
    };
    context.put(MEMORY_ITEMS, revised);
    if (revised.lifecycle_status === 'active') indexChunks(context, revised);
    await moveCorpus(context, current, revised, at);
  },
};

/** An erased item leaves search and the read model (its row deleted, not kept with its text). */
async function eraseItem(context: ProjectionContext, id: string, at: string): Promise<void> {
  const current = await context.get<MemoryItemDocument>(MEMORY_ITEMS, id);
  if (!current) return;
  for (const chunk of current.chunks) context.removeDocument(chunkDocumentId(chunk.memory_chunk_id));
  if (current.lifecycle_status === 'active') {
    await moveCorpus(context, current, { ...current, lifecycle_status: 'archived' }, at);
  }
  context.delete(MEMORY_ITEMS, id);
}

function itemDigest(item: MemoryItemDocument): Buffer {
  return createHash('sha256')
    .update(`${item.memory_item_id}:${item.revision}:${item.lifecycle_status}`)
    .digest();
}

function xor(a: Buffer, b: Buffer): Buffer {
  return Buffer.from(Array.from(a, (byte, index) => byte ^ b[index]));
}

async function moveCorpus(
  context: ProjectionContext,
  before: MemoryItemDocument | null,
  after: MemoryItemDocument,
  at: string,
): Promise<void> {
  const id = String(after.organization_id);
  const current = await context.get<MemoryCorpusDocument>(MEMORY_CORPUS, id);
  let digest: Buffer = current ? Buffer.from(current.digest, 'hex') : Buffer.alloc(32);
  if (before) digest = xor(digest, itemDigest(before));
  digest = xor(digest, itemDigest(after));
  const hex = digest.toString('hex');
  context.put(MEMORY_CORPUS, {
    id,
    organization_id: after.organization_id,
    digest: hex,
    corpus_revision: `crv_${hex.slice(0, 16)}`,
    index_revision: `idx_v${MEMORY_PROJECTION_VERSION}_${hex.slice(0, 16)}`,
    updated_at: at,
  });
}

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

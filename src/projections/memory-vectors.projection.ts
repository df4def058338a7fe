import type { Embeddings } from '../ai/embeddings';
import type { MemoryItemEvent } from '../events/memory/memory.events';
import type { RecordedEvent } from '../infrastructure/event-store/event-store.port';
import { completeContent, dropStagedParts, stagePart } from './content-part-staging';
import { EmbeddingMemo } from './embedding-memo';
import { erasedMemoryItem } from './erased-subjects';
import type { Projection, ProjectionContext } from './projection';

export const MEMORY_VECTORS = 'memory_vectors';
export const MEMORY_VECTORS_PROJECTION = 'memory-vectors';
export const MEMORY_VECTORS_VERSION = 2;
/** Per item: the chunk ids whose vectors are stored (so a revision or archive can remove them). */
const VECTOR_ITEMS = 'memory_vector_items';
/** Chunks of revisions not completed yet (content-part-staging.ts). */
const VECTOR_PARTS = 'memory_vector_parts';

/**
 * One chunk's vector, or its tombstone once a revision or archive removed the chunk (`vector: null`): the
 * collection is the vector index's change feed (every write carries the global position of the event that made
 * it, and removals stay visible as tombstones), so an index follows it by reading only what changed.
 */
export interface MemoryVectorDocument {
  id: string;
  organization_id: number;
  memory_item_id: number;
  memory_chunk_id: number;
  visibility: string;
  owner_client_key: string | null;
  expires_at_ms: number | null;
  /** Global position of the event that wrote this state. */
  position: number;
  /** The embedding as little-endian float32, base64 (a quarter of its JSON size); null: removed. */
  vector: string | null;
  [key: string]: unknown;
}

/** The read model's encoding of an embedding. */
export function encodeVector(vector: readonly number[]): string {
  return Buffer.from(Float32Array.from(vector).buffer).toString('base64');
}

export function decodeVector(encoded: string): Float32Array {
  const bytes = Buffer.from(encoded, 'base64');
  return new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
}

interface VectorItemDocument {
  id: string;
  chunk_ids: number[];
  visibility: string;
  owner_client_key: string | null;
  organization_id: number;
  [key: string]: unknown;
}

/**
 * Chunk embeddings for hybrid search, only when CAIRN_EMBEDDING_MODEL is set. The model is called while the event
 * is applied; when it fails, the batch is not committed and the runner retries it with backoff, so no vector is
 * lost and the lexical search keeps working meanwhile; the retry re-embeds only what the failed attempt had not
 * (EmbeddingMemo). Version 2: vectors as base64 float32, the position of
 * each write, and tombstones for removed chunks (the ANN index's change feed, see ChunkVectorIndex).
 */
export function memoryVectorsProjection(embeddings: Embeddings): Projection {
  const memo = new EmbeddingMemo();
  return {
    name: MEMORY_VECTORS_PROJECTION,
    version: MEMORY_VECTORS_VERSION,
    collections: [
      { name: MEMORY_VECTORS, indexes: ['position'] },
      { name: VECTOR_ITEMS, indexes: [] },
      { name: VECTOR_PARTS, indexes: [] },
    ],
    eventTypes: new Set([
      'MemoryContentPartRecorded',
      'MemoryItemCreated',
      'MemoryItemRevised',
      'MemoryItemArchived',
      'SubjectErased',
    ]),
    async apply(recorded: RecordedEvent, context: ProjectionContext) {
      if (recorded.type === 'SubjectErased') {
        const erased = erasedMemoryItem(recorded);
        // An erased item leaves the index as an archived one does (its vectors tombstoned), and its staged parts
        // of a revision that never completed (their chunks' text) go.
        if (!erased) return;
        await dropStagedParts(context, VECTOR_PARTS, erased.memory_item_id);
        return this.apply({ ...recorded, type: 'MemoryItemArchived', data: erased }, context);
      }
      const event = recorded as unknown as MemoryItemEvent;
      if (event.type === 'MemoryContentPartRecorded') {
        await stagePart(context, VECTOR_PARTS, event.data, false);
        return;
      }
      const itemId = String(event.data.memory_item_id);
      const previous = await context.get<VectorItemDocument>(VECTOR_ITEMS, itemId);
      for (const chunkId of previous?.chunk_ids ?? []) {
        const tombstone: MemoryVectorDocument = {
          id: `chunk-${chunkId}`,
          organization_id: previous?.organization_id ?? event.data.organization_id,
          memory_item_id: event.data.memory_item_id,
          memory_chunk_id: chunkId,
          visibility: previous?.visibility ?? 'organization_internal',
          owner_client_key: previous?.owner_client_key ?? null,
          expires_at_ms: null,
          position: recorded.position,
          vector: null,
        };
        context.put(MEMORY_VECTORS, tombstone);
      }
      if (event.type === 'MemoryItemArchived') {
        if (previous) context.put(VECTOR_ITEMS, { ...previous, chunk_ids: [] });
        return;
      }
      const scope =
        event.type === 'MemoryItemCreated'
          ? { visibility: event.data.visibility, owner_client_key: event.data.owner_client_key }
          : {
              visibility: previous?.visibility ?? 'organization_internal',
              owner_client_key: previous?.owner_client_key ?? null,
            };
      const { chunks } = await completeContent(context, VECTOR_PARTS, event.data);
      const vectors = await memo.vectors(
        chunks.map((chunk) => [event.data.title, chunk.heading, chunk.text].filter(Boolean).join('\n')),
        (texts) => embeddings.embed(texts),
        encodeVector,
      );
      chunks.forEach((chunk, index) => {
        const doc: MemoryVectorDocument = {
          id: `chunk-${chunk.memory_chunk_id}`,
          organization_id: event.data.organization_id,
          memory_item_id: event.data.memory_item_id,
          memory_chunk_id: chunk.memory_chunk_id,
          ...scope,
          expires_at_ms: event.data.expires_at === null ? null : Date.parse(event.data.expires_at),
          position: recorded.position,
          vector: vectors[index],
        };
        context.put(MEMORY_VECTORS, doc);
      });
      context.put(VECTOR_ITEMS, {
        id: itemId,
        organization_id: event.data.organization_id,
        ...scope,
        chunk_ids: chunks.map((chunk) => chunk.memory_chunk_id),
      });
    },
  };
}

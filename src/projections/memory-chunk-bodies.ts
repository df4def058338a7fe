/**
 * The embedded search index's body source for memory chunks (body-source.ts): a chunk document's body is its
 * chunk's text in the memory read model, so the text is stored once there (issue 32). A chunk document names its
 * item and chunk in its fields (memory.projection.ts indexChunks); the item is read with its packed chunks, one
 * statement for the items of up to MAX_GET_MANY documents. The index checks every text against its row hash, so
 * a read model that moved on (or one rebuilt apart from the index) gives no text rather than a wrong one.
 */
import type { SqliteReadStore } from '../infrastructure/read-store/sqlite/sqlite-read-store';
import { MAX_GET_MANY } from '../infrastructure/read-store/read-store.port';
import type { BodyRequest, SearchBodySource } from '../infrastructure/search/sqlite/body-source';
import { chunkDocumentId, MEMORY_ITEMS, type MemoryItemDocument } from './memory.projection';

export class MemoryChunkBodies implements SearchBodySource {
  constructor(private readonly readStore: SqliteReadStore) {}

  bodies(documents: readonly BodyRequest[]): Map<string, string> {
    const wanted = new Set<string>();
    const items = new Set<string>();
    for (const { id, fields } of documents) {
      const item = fields.memory_item_id;
      if (typeof item !== 'number' || typeof fields.memory_chunk_id !== 'number') continue;
      wanted.add(id);
      items.add(String(item));
    }
    const found = new Map<string, string>();
    const ids = [...items];
    for (let start = 0; start < ids.length; start += MAX_GET_MANY) {
      const read = this.readStore.getFieldNow(MEMORY_ITEMS, ids.slice(start, start + MAX_GET_MANY), 'chunks');
      for (const chunks of read.values()) {
        for (const chunk of (chunks as MemoryItemDocument['chunks'] | null) ?? []) {
          const id = chunkDocumentId(chunk.memory_chunk_id);
          if (wanted.has(id)) found.set(id, chunk.text);
        }
      }
    }
    return found;
  }
}

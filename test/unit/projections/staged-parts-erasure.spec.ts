/**
 * An erased item's staged parts (content parts of a revision that never completed: they hold its text) leave
 * both projections that stage them, the memory read model's and the vector index's (content-part-staging.ts).
 */
import type { Embeddings } from '../../../src/ai/embeddings';
import type { RecordedEvent } from '../../../src/infrastructure/event-store/event-store.port';
import type { ReadDocument } from '../../../src/infrastructure/read-store/read-store.port';
import { memoryProjection } from '../../../src/projections/memory.projection';
import { memoryVectorsProjection } from '../../../src/projections/memory-vectors.projection';
import type { Projection, ProjectionContext } from '../../../src/projections/projection';

/** A context over plain maps, one per collection. */
function mapContext(): { context: ProjectionContext; docs: Map<string, Map<string, ReadDocument>> } {
  const docs = new Map<string, Map<string, ReadDocument>>();
  const of = (collection: string) => {
    let map = docs.get(collection);
    if (map === undefined) docs.set(collection, (map = new Map()));
    return map;
  };
  const context: ProjectionContext = {
    get: async <T extends ReadDocument = ReadDocument>(collection: string, id: string): Promise<T | null> =>
      (of(collection).get(id) as T | undefined) ?? null,
    put: (collection, doc) => void of(collection).set(doc.id, doc),
    delete: (collection, id) => void of(collection).delete(id),
    indexDocument: () => undefined,
    removeDocument: () => undefined,
  };
  return { context, docs };
}

let position = 0;
function recorded(type: string, data: Record<string, unknown>): RecordedEvent {
  position += 1;
  return {
    event_id: `00000000-0000-7000-8000-${String(position).padStart(12, '0')}`,
    stream: `memory-item-${String(data.memory_item_id ?? data.id)}`,
    revision: position,
    position,
    type,
    data,
    metadata: { occurred_at: '2026-11-28T09:00:00.000Z' },
  } as unknown as RecordedEvent;
}

const part = (item: number, n: number) =>
  recorded('MemoryContentPartRecorded', {
    memory_item_id: item,
    organization_id: 1,
    revision: 2,
    content_sha256: 'a'.repeat(64),
    part: n,
    content: `zqstagedheron part ${n} of item ${item}`,
    chunks: [{ memory_chunk_id: 100 * item + n, ordinal: n, heading: null, text: `zqstagedheron ${n}` }],
  });

const erased = (item: number) =>
  recorded('SubjectErased', {
    subject: `memory-item-${item}`,
    kind: 'memory_item',
    id: item,
    organization_id: 1,
    erased_by: 'operator:test',
    reason: null,
    keys_destroyed: 1,
    erased_at: '2026-11-28T09:00:00.000Z',
  });

const embeddings = { embed: async () => [] } as unknown as Embeddings;

describe.each<[string, Projection, string]>([
  ['memory', memoryProjection, 'memory_item_parts'],
  ['memory vectors', memoryVectorsProjection(embeddings), 'memory_vector_parts'],
])('%s projection: an erased item’s staged parts', (_name, projection, collection) => {
  it('are deleted with the item; another item’s stay', async () => {
    const { context, docs } = mapContext();
    for (const event of [part(7, 0), part(7, 1), part(8, 0)]) await projection.apply(event, context);
    const ids = () => [...(docs.get(collection)?.keys() ?? [])].sort();
    expect(ids()).toEqual([
      `7:2:${'a'.repeat(64)}:0`,
      `7:2:${'a'.repeat(64)}:1`,
      '7:staged',
      `8:2:${'a'.repeat(64)}:0`,
      '8:staged',
    ]);
    await projection.apply(erased(7), context);
    expect(ids()).toEqual([`8:2:${'a'.repeat(64)}:0`, '8:staged']);
    expect(JSON.stringify([...(docs.get(collection)?.values() ?? [])])).not.toContain('item 7');
  });
});

import { join } from 'node:path';
import { existsSync } from 'node:fs';
import type { ReadStore } from '../../../src/infrastructure/read-store/read-store.port';
import { SqliteReadStore } from '../../../src/infrastructure/read-store/sqlite/sqlite-read-store';
import { openSqlite } from '../../../src/infrastructure/sqlite/sqlite-connection';
import { VectorSnapshotDirectory } from '../../../src/infrastructure/vectors/vector-snapshot';
import {
  MEMORY_VECTORS,
  MEMORY_VECTORS_PROJECTION,
  MEMORY_VECTORS_VERSION,
  encodeVector,
  type MemoryVectorDocument,
} from '../../../src/projections/memory-vectors.projection';
import { ChunkVectorIndex, type VectorScope } from '../../../src/queries/memory/chunk-vector-index';
import { makeTempDir } from '../../support/temp-dir';
import { seededRandom } from '../../../bench/synthetic-text';

const DIMS = 32;

/** Clustered vectors: 30 centres, each vector a centre plus noise (embeddings have such structure). */
function clustered(count: number, seed: number): number[][] {
  const next = seededRandom(seed);
  const centres = Array.from({ length: 30 }, () => Array.from({ length: DIMS }, () => next() * 2 - 1));
  return Array.from({ length: count }, (_, n) =>
    centres[n % centres.length].map((value) => value + (next() - 0.5) * 0.8),
  );
}

function cosine(a: readonly number[], b: readonly number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return dot / Math.sqrt(na * nb);
}

type Row = Partial<Omit<MemoryVectorDocument, 'vector'>> & {
  memory_chunk_id: number;
  vector: number[] | null;
};

/** Writes rows to the memory-vectors read model as the projection commits them: one position per call. */
class VectorReadModel {
  position = 0;
  constructor(private readonly readStore: ReadStore) {}

  async write(rows: Row[]): Promise<void> {
    const next = this.position + 1;
    const ops = rows.map((row) => ({
      op: 'put' as const,
      collection: MEMORY_VECTORS,
      doc: {
        organization_id: 1,
        memory_item_id: row.memory_chunk_id,
        visibility: 'organization_internal',
        owner_client_key: null,
        expires_at_ms: null,
        ...row,
        id: `chunk-${row.memory_chunk_id}`,
        position: next,
        vector: row.vector === null ? null : encodeVector(row.vector),
      },
    }));
    const committed = await this.readStore.commit(
      MEMORY_VECTORS_PROJECTION,
      this.position,
      { position: next, version: MEMORY_VECTORS_VERSION },
      ops,
    );
    if (!committed) throw new Error('commit refused');
    this.position = next;
  }
}

describe('ChunkVectorIndex (usearch HNSW following the memory-vectors read model)', () => {
  let temp: ReturnType<typeof makeTempDir>;
  let readStore: SqliteReadStore;
  let model: VectorReadModel;
  const indexDir = () => join(temp.dir, 'vector-index');
  const newIndex = (options = {}) =>
    new ChunkVectorIndex(readStore, new VectorSnapshotDirectory(indexDir()), options);
  const scope = (over: Partial<VectorScope> = {}): VectorScope => ({
    organizationId: 1,
    clientKey: 'client-a',
    visibility: null,
    nowMs: 1_000_000,
    ...over,
  });

  beforeEach(async () => {
    temp = makeTempDir();
    readStore = new SqliteReadStore(openSqlite({ path: join(temp.dir, 'cairn.sqlite') }));
    await readStore.ensureCollection(MEMORY_VECTORS, ['position']);
    model = new VectorReadModel(readStore);
  });
  afterEach(async () => {
    await readStore.close();
    temp.cleanup();
  });

  it('finds the exact top 10 of cosine similarity at least 95% of the time', async () => {
    const vectors = clustered(3000, 7);
    for (let start = 0; start < vectors.length; start += 500) {
      await model.write(
        vectors.slice(start, start + 500).map((vector, n) => ({ memory_chunk_id: start + n + 1, vector })),
      );
    }
    const index = newIndex();
    const queries = clustered(50, 99);
    let found = 0;
    for (const query of queries) {
      const exact = vectors
        .map((vector, n) => ({ id: n + 1, score: cosine(query, vector) }))
        .sort((a, b) => b.score - a.score)
        .slice(0, 10)
        .map((hit) => hit.id);
      const ann = (await index.search(scope(), Float32Array.from(query), 10)).map((hit) => hit.chunkId);
      found += ann.filter((id) => exact.includes(id)).length;
    }
    expect(found / (queries.length * 10)).toBeGreaterThanOrEqual(0.95);
  });

  it('applies a write by reading only its rows, never the organization again, also after a restart', async () => {
    const vectors = clustered(3000, 1);
    await model.write(vectors.map((vector, n) => ({ memory_chunk_id: n + 1, vector })));
    const index = newIndex();
    await index.search(scope(), Float32Array.from(vectors[0]), 10);
    expect(index.stats.rowsRead).toBe(3000);
    // 3,000 writes since nothing: compacted into a saved base, now viewed memory-mapped.
    expect(index.stats.snapshotsWritten).toBe(1);
    expect(existsSync(join(indexDir(), 'manifest.json'))).toBe(true);

    const note = clustered(1, 555)[0];
    await model.write([{ memory_chunk_id: 5000, memory_item_id: 77, vector: note }]);
    const hits = await index.search(scope(), Float32Array.from(note), 3);
    expect(hits[0]).toMatchObject({ chunkId: 5000, itemId: 77 });
    expect(index.stats.rowsRead).toBe(3001);
    expect(index.size).toBe(3001);

    // Another process (or a restart): the saved base, then only the rows after it.
    const restarted = newIndex();
    expect((await restarted.search(scope(), Float32Array.from(note), 3))[0].chunkId).toBe(5000);
    expect(restarted.stats.snapshotsViewed).toBe(1);
    expect(restarted.stats.rowsRead).toBe(1);
  });

  it("shares one saved base between processes: a worker views another's compaction instead of keeping its own", async () => {
    const vectors = clustered(2200, 11);
    await model.write(vectors.slice(0, 100).map((vector, n) => ({ memory_chunk_id: n + 1, vector })));
    const a = newIndex();
    const b = newIndex();
    await a.search(scope(), Float32Array.from(vectors[0]), 1);
    await b.search(scope(), Float32Array.from(vectors[0]), 1);
    await model.write(vectors.slice(100).map((vector, n) => ({ memory_chunk_id: n + 101, vector })));
    // A reaches the compaction threshold first and saves base + delta; B then views that base.
    await a.search(scope(), Float32Array.from(vectors[0]), 1);
    expect(a.stats.snapshotsWritten).toBe(1);
    const hits = await b.search(scope(), Float32Array.from(vectors[2150]), 1);
    expect(hits[0].chunkId).toBe(2151);
    expect(b.stats.snapshotsViewed).toBe(1);
    expect(b.stats.snapshotsWritten).toBe(0);
    expect(b.size).toBe(2200);
  });

  it("never returns another client's tool_private chunk, even the query's own vector", async () => {
    const vectors = clustered(200, 3);
    const secret = vectors[0];
    await model.write([
      ...vectors.slice(1).map((vector, n) => ({ memory_chunk_id: n + 2, vector })),
      { memory_chunk_id: 1, vector: secret, visibility: 'tool_private', owner_client_key: 'client-b' },
      { memory_chunk_id: 900, vector: secret, visibility: 'tool_private', owner_client_key: 'client-a' },
    ]);
    const index = newIndex();
    const query = Float32Array.from(secret);
    for (const visibility of [null, 'tool_private', 'organization_internal'] as const) {
      const ids = (await index.search(scope({ visibility }), query, 300)).map((hit) => hit.chunkId);
      expect(ids).not.toContain(1);
      if (visibility === 'organization_internal') expect(ids).not.toContain(900);
      else expect(ids[0]).toBe(900);
      if (visibility === 'tool_private') expect(ids).toEqual([900]);
    }
    const b = await index.search(scope({ clientKey: 'client-b', visibility: 'tool_private' }), query, 5);
    expect(b.map((hit) => hit.chunkId)).toEqual([1]);
    // Another organization sees none of them.
    expect(await index.search(scope({ organizationId: 2 }), query, 5)).toEqual([]);
  });

  it('leaves out removed (tombstoned) and expired chunks, in the saved base and in the delta', async () => {
    const vectors = clustered(2500, 5);
    const target = vectors[0];
    await model.write(vectors.map((vector, n) => ({ memory_chunk_id: n + 1, vector })));
    const index = newIndex();
    expect((await index.search(scope(), Float32Array.from(target), 1))[0].chunkId).toBe(1);
    expect(index.stats.snapshotsWritten).toBe(1);
    // Chunk 1 (in the base) removed by a revision whose new chunk (delta) expired.
    await model.write([
      { memory_chunk_id: 1, vector: null },
      { memory_chunk_id: 3000, vector: target, expires_at_ms: 999_999 },
      { memory_chunk_id: 3001, vector: target, expires_at_ms: 2_000_000 },
    ]);
    const ids = (await index.search(scope(), Float32Array.from(target), 20)).map((hit) => hit.chunkId);
    expect(ids).not.toContain(1);
    expect(ids).not.toContain(3000);
    expect(ids[0]).toBe(3001);
  });

  it('finds the nearest live chunks of an organization whose chunks have mostly expired or been removed', async () => {
    // 2,500 chunks in the saved base: 2,445 expired, 30 of the other 55 removed; 40 more in the delta, 30 expired.
    // The graphs' nearest are mostly dead: the search asks again for more until enough live ones are found.
    const vectors = clustered(2540, 21);
    const live = new Set<number>();
    const expired = (id: number) => id % 83 !== 0 && id % 97 !== 0;
    await model.write(
      vectors.slice(0, 2500).map((vector, n) => {
        const id = n + 1;
        if (!expired(id)) live.add(id);
        return { memory_chunk_id: id, vector, expires_at_ms: expired(id) ? 999_999 : 2_000_000 };
      }),
    );
    const index = newIndex();
    await index.search(scope(), Float32Array.from(vectors[0]), 1);
    expect(index.stats.snapshotsWritten).toBe(1);
    const removed = [...live].slice(0, 30);
    await model.write(removed.map((id) => ({ memory_chunk_id: id, vector: null })));
    for (const id of removed) live.delete(id);
    await model.write(
      vectors.slice(2500).map((vector, n) => {
        const id = n + 2501;
        if (n < 10) live.add(id);
        return { memory_chunk_id: id, vector, expires_at_ms: n < 10 ? null : 999_999 };
      }),
    );
    expect(live.size).toBe(35);
    for (const query of clustered(5, 77)) {
      const exact = [...live]
        .map((id) => ({ id, score: cosine(query, vectors[id - 1]) }))
        .filter((hit) => hit.score > 0)
        .sort((a, b) => b.score - a.score)
        .slice(0, 10)
        .map((hit) => hit.id);
      const hits = await index.search(scope(), Float32Array.from(query), 10);
      expect(hits.map((hit) => hit.chunkId)).toEqual(exact);
    }
  });

  it('returns only chunks of positive similarity: none for a query opposite to every chunk', async () => {
    // Every component positive: any two of these are at a similarity >= 0, and the all-negative query below <= 0.
    const vectors = clustered(2100, 4).map((vector) => vector.map((value) => Math.abs(value) + 0.01));
    await model.write(vectors.map((vector, n) => ({ memory_chunk_id: n + 1, vector })));
    const index = newIndex();
    const opposite = Float32Array.from({ length: DIMS }, () => -1);
    expect(await index.search(scope(), opposite, 10)).toEqual([]);
    await model.write([{ memory_chunk_id: 9000, vector: Array.from(opposite) }]);
    const hits = await index.search(scope(), opposite, 10);
    expect(hits.map((hit) => hit.chunkId)).toEqual([9000]);
    expect(hits[0].score).toBeCloseTo(1, 3);
  });

  it('follows a rebuild of the read model from nothing (projections:rebuild)', async () => {
    const vectors = clustered(2500, 8);
    await model.write(vectors.slice(0, 2000).map((vector, n) => ({ memory_chunk_id: n + 1, vector })));
    await model.write(vectors.slice(2000).map((vector, n) => ({ memory_chunk_id: n + 2001, vector })));
    const index = newIndex();
    await index.search(scope(), Float32Array.from(vectors[0]), 1);
    await readStore.reset(MEMORY_VECTORS_PROJECTION, [MEMORY_VECTORS]);
    model.position = 0;
    // The rebuild has replayed its first position so far.
    await model.write([{ memory_chunk_id: 7, vector: vectors[7] }]);
    const hits = await index.search(scope(), Float32Array.from(vectors[7]), 10);
    expect(index.stats.resets).toBe(1);
    expect(hits.map((hit) => hit.chunkId)).toEqual([7]);
    // The saved snapshot reflected the old read model: it is no longer offered to a new process.
    const fresh = newIndex();
    expect((await fresh.search(scope(), Float32Array.from(vectors[7]), 10)).map((h) => h.chunkId)).toEqual([
      7,
    ]);
    expect(fresh.stats.snapshotsViewed).toBe(0);
  });
});

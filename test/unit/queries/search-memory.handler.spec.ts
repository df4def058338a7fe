import { SEARCH_CONNECTOR } from '../../support/search-connector';
import { SqliteReadStore } from '../../../src/infrastructure/read-store/sqlite/sqlite-read-store';
import type {
  SearchHit,
  SearchIndex,
  SearchQuery,
} from '../../../src/infrastructure/search/search-index.port';
import { openSqlite, type SqliteDatabase } from '../../../src/infrastructure/sqlite/sqlite-connection';
import { SystemClock } from '../../../src/common/clock';
import { MEMORY_CORPUS, MEMORY_ITEMS } from '../../../src/projections/memory.projection';
import { MEMORY_USAGE, MEMORY_USAGE_REVISIONS } from '../../../src/projections/memory-usage.projection';
import { DEFAULT_SEARCH_TITLE_BOOST } from '../../../src/config/config';
import { SearchMemoryHandler } from '../../../src/queries/memory/search-memory.handler';
import { SearchMemoryQuery } from '../../../src/queries/memory/search-memory.query';
import type { VectorCandidates } from '../../../src/queries/memory/vector-candidates';

const connector = SEARCH_CONNECTOR;

/** A chunk hit whose highlights are counted when read (the index computes them on first read). */
function hit(item: number, score: number, reads: { count: number }): SearchHit {
  return {
    id: `chunk-${item * 10}`,
    score,
    title: `Item ${item}`,
    fields: { memory_item_id: item, memory_chunk_id: item * 10 },
    get highlights(): string[] {
      reads.count += 1;
      return [`about «refunds» for item ${item}`];
    },
  };
}

function item(id: number): { id: string } & Record<string, unknown> {
  return {
    id: String(id),
    memory_item_id: id,
    memory_source_id: id,
    organization_id: connector.organization_id,
    type: 'document',
    title: `Item ${id}`,
    summary: `Summary ${id}`,
    content: `The whole text of item ${id}.`,
    chunks: [{ memory_chunk_id: id * 10, ordinal: 0, heading: null, text: `The whole text of item ${id}.` }],
    visibility: 'organization_internal',
    owner_client_key: null,
    lifecycle_status: 'active',
    revision: 1,
  };
}

describe('SearchMemoryHandler', () => {
  let db: SqliteDatabase;
  let readStore: SqliteReadStore;
  const reads = { count: 0 };
  let handler: SearchMemoryHandler;

  beforeEach(async () => {
    reads.count = 0;
    db = openSqlite({ path: ':memory:' });
    readStore = new SqliteReadStore(db);
    await readStore.ensureCollection(MEMORY_CORPUS, []);
    await readStore.ensureCollection(MEMORY_ITEMS, []);
    const corpus = { id: String(connector.organization_id), index_revision: 'idx_v1_test' };
    await readStore.commit('memory', 0, { position: 1, version: 1 }, [
      { op: 'put', collection: MEMORY_CORPUS, doc: corpus },
      ...[1, 2, 3].map((id) => ({ op: 'put' as const, collection: MEMORY_ITEMS, doc: item(id) })),
    ]);
    const index = {
      search: async () => [hit(1, 3, reads), hit(2, 2, reads), hit(3, 1, reads)],
    } as unknown as SearchIndex;
    const vectors = { enabled: false } as unknown as VectorCandidates;
    handler = new SearchMemoryHandler(index, readStore, new SystemClock(), vectors, {
      searchTitleBoost: DEFAULT_SEARCH_TITLE_BOOST,
    });
  });

  afterEach(async () => {
    await readStore.close();
    db.close();
  });

  it('reads no highlight for a plain search, and leaves every excerpt empty', async () => {
    const found = await handler.execute(new SearchMemoryQuery(connector, 'refunds', 10, null, false));
    expect(found.items.map((ranked) => ranked.item.memory_item_id)).toEqual([1, 2, 3]);
    expect(found.items.map((ranked) => ranked.excerpt)).toEqual(['', '', '']);
    expect(reads.count).toBe(0);
  });

  it('keeps and returns items without their text (content and chunks: results never show it)', async () => {
    const found = await handler.execute(new SearchMemoryQuery(connector, 'refunds', 10, null, false));
    expect(found.items.map((ranked) => ranked.item.title)).toEqual(['Item 1', 'Item 2', 'Item 3']);
    for (const ranked of found.items) {
      expect(ranked.item).not.toHaveProperty('content');
      expect(ranked.item).not.toHaveProperty('chunks');
    }
  });

  it('reads the items without their packed chunks (never unpacked for a search)', async () => {
    const getMany = jest.spyOn(readStore, 'getMany');
    await handler.execute(new SearchMemoryQuery(connector, 'refunds', 10, null, false));
    expect(getMany).toHaveBeenCalledWith(MEMORY_ITEMS, ['1', '2', '3'], { packed: false });
  });

  it('gives each returned item its best chunk’s first highlight, without the match marks, when asked', async () => {
    const found = await handler.execute(new SearchMemoryQuery(connector, 'refunds', 2, null, true));
    expect(found.items.map((ranked) => ranked.excerpt)).toEqual([
      'about refunds for item 1',
      'about refunds for item 2',
    ]);
    // Only what is returned is highlighted (limit 2 of 3 candidates).
    expect(reads.count).toBe(2);
  });
});

describe('SearchMemoryHandler ranking with usage reports', () => {
  let db: SqliteDatabase;
  let readStore: SqliteReadStore;
  let handler: SearchMemoryHandler;
  const ids = Array.from({ length: 25 }, (_, i) => i + 1);
  const asked: SearchQuery[] = [];
  let hits: SearchHit[] = [];
  const semanticAsks: number[] = [];
  let hybrid: (
    semantic: Array<{ memory_item_id: number; memory_chunk_id: number; score: number }>,
  ) => SearchMemoryHandler;

  beforeEach(async () => {
    db = openSqlite({ path: ':memory:' });
    readStore = new SqliteReadStore(db);
    for (const collection of [MEMORY_CORPUS, MEMORY_ITEMS, MEMORY_USAGE, MEMORY_USAGE_REVISIONS]) {
      await readStore.ensureCollection(collection, []);
    }
    const corpus = { id: String(connector.organization_id), index_revision: 'idx_v1_test' };
    await readStore.commit('memory', 0, { position: 1, version: 1 }, [
      { op: 'put', collection: MEMORY_CORPUS, doc: corpus },
      ...ids.map((id) => ({ op: 'put' as const, collection: MEMORY_ITEMS, doc: item(id) })),
    ]);
    // Item 1 scores 3, items 2–24 a little less each, item 25 (the last candidate) 2.45.
    hits = ids.map((id) => hit(id, id === 1 ? 3 : id === 25 ? 2.45 : 2.9 - id * 0.01, { count: 0 }));
    asked.length = 0;
    const index = {
      search: async (query: SearchQuery) => {
        asked.push(query);
        return hits.slice(0, query.limit);
      },
    } as unknown as SearchIndex;
    const vectors = { enabled: false } as unknown as VectorCandidates;
    handler = new SearchMemoryHandler(index, readStore, new SystemClock(), vectors, {
      searchTitleBoost: DEFAULT_SEARCH_TITLE_BOOST,
    });
    hybrid = (semantic) => {
      const embedded = {
        enabled: true,
        search: async () => {
          semanticAsks.push(1);
          return semantic;
        },
      } as unknown as VectorCandidates;
      return new SearchMemoryHandler(index, readStore, new SystemClock(), embedded, {
        searchTitleBoost: DEFAULT_SEARCH_TITLE_BOOST,
      });
    };
    semanticAsks.length = 0;
  });

  afterEach(async () => {
    await readStore.close();
    db.close();
  });

  async function reportUsage(itemId: number, used: number, ignored = 0): Promise<void> {
    const organization = connector.organization_id;
    await readStore.commit('memory-usage', 0, { position: 2, version: 1 }, [
      {
        op: 'put',
        collection: MEMORY_USAGE,
        doc: {
          id: String(itemId),
          memory_item_id: itemId,
          organization_id: organization,
          used_count: used,
          ignored_count: ignored,
        },
      },
      {
        op: 'put',
        collection: MEMORY_USAGE_REVISIONS,
        doc: { id: String(organization), organization_id: organization, revision: 1, projection_version: 2 },
      },
    ]);
  }

  it('ranks by lexical score alone while nobody reported usage', async () => {
    const found = await handler.execute(new SearchMemoryQuery(connector, 'refunds', 2, null, false));
    expect(found.items.map((ranked) => ranked.item.memory_item_id)).toEqual([1, 2]);
    // One ask, for as many items as results wanted, each with its best matching chunks.
    expect(asked.map((query) => [query.limit, query.collapse])).toEqual([
      [2, { field: 'memory_item_id', max_members: 10 }],
    ]);
  });

  it('lets an item reported useful overtake better-scored ones, even from the last candidate', async () => {
    // 200 reports: the largest multiplier (1.5): 2.45 × 1.5 = 3.675 > 3.
    await reportUsage(25, 200);
    const found = await handler.execute(new SearchMemoryQuery(connector, 'refunds', 1, null, false));
    expect(found.items.map((ranked) => ranked.item.memory_item_id)).toEqual([25]);
    expect(found.items[0].score).toBeCloseTo(2.45 * 1.5, 10);
    // The usage ceiling kept every ask unsettled until the index ran out of items.
    expect(asked.map((query) => query.limit)).toEqual([1, 4, 16, 64]);
  });

  it('asks for no more items once a later item could not enter even at the largest multiplier', async () => {
    await reportUsage(3, 1);
    // Item 1 scores 10, every other 1: past item 1, 1 × 1.5 < 10 settles the results at the second ask.
    hits = ids.map((id) => hit(id, id === 1 ? 10 : 1, { count: 0 }));
    const found = await handler.execute(new SearchMemoryQuery(connector, 'refunds', 1, null, false));
    expect(found.items.map((ranked) => ranked.item.memory_item_id)).toEqual([1]);
    expect(asked.map((query) => query.limit)).toEqual([1, 4]);
  });

  it('with embeddings on, fuses the best 10 items per result of each ranking, asking each index once', async () => {
    // Item 1 reported ignored (multiplier 0.5): the bar stays low enough that later lexical items could still
    // enter, which without embeddings would ask the index again.
    await reportUsage(1, 0, 200);
    const found = await hybrid([{ memory_item_id: 25, memory_chunk_id: 250, score: 0.9 }]).execute(
      new SearchMemoryQuery(connector, 'refunds', 1, null, false),
    );
    // Item 25 is the 25th lexical item, past the fused depth: found by the vectors alone, lifted by its usage.
    expect(found.items.map((ranked) => [ranked.item.memory_item_id, ranked.method])).toEqual([
      [25, 'semantic'],
    ]);
    expect(asked.map((query) => query.limit)).toEqual([10]);
    expect(semanticAsks).toHaveLength(1);
  });
  it('with embeddings on, ranks items semantically in the order of their nearest chunk, each item once', async () => {
    // The vectors' chunks, nearest first: item 20's, 21's, 20's again (a second chunk), 22's. Fused with their
    // lexical ranks (20th, 21st, 22nd of 25), the semantic order decides: 20, 21, 22. Were the semantic order
    // reversed (22, 21, 20), 22 would lead.
    const found = await hybrid([
      { memory_item_id: 20, memory_chunk_id: 200, score: 0.9 },
      { memory_item_id: 21, memory_chunk_id: 210, score: 0.8 },
      { memory_item_id: 20, memory_chunk_id: 201, score: 0.7 },
      { memory_item_id: 22, memory_chunk_id: 220, score: 0.6 },
    ]).execute(new SearchMemoryQuery(connector, 'refunds', 3, null, false));
    expect(found.items.map((ranked) => [ranked.item.memory_item_id, ranked.method])).toEqual([
      [20, 'hybrid'],
      [21, 'hybrid'],
      [22, 'hybrid'],
    ]);
    // Reciprocal rank fusion (k 60): lexical rank 20 and semantic rank 1 (its second chunk adds no rank).
    expect(found.items[0].score).toBeCloseTo(1 / (60 + 20) + 1 / (60 + 1), 12);
    expect(found.items[2].score).toBeCloseTo(1 / (60 + 22) + 1 / (60 + 3), 12);
    // The item's semantic chunks join its lexical one, each once.
    expect([...found.items[0].chunk_ids].sort((a, b) => a - b)).toEqual([200, 201]);
  });
});

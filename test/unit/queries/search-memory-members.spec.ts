/**
 * With embeddings on, the lexical candidates are asked for with one member each and the results' matching chunks
 * are read afterwards for the results alone (result-members.ts): the results must be exactly those
 * of asking every candidate's members up front.
 */
import { SEARCH_CONNECTOR } from '../../support/search-connector';
import { SqliteReadStore } from '../../../src/infrastructure/read-store/sqlite/sqlite-read-store';
import type { SearchIndex, SearchQuery } from '../../../src/infrastructure/search/search-index.port';
import { SqliteSearchIndex } from '../../../src/infrastructure/search/sqlite/sqlite-search-index';
import { openSqlite, type SqliteDatabase } from '../../../src/infrastructure/sqlite/sqlite-connection';
import { SystemClock } from '../../../src/common/clock';
import { MEMORY_CORPUS, MEMORY_ITEMS } from '../../../src/projections/memory.projection';
import { MEMORY_USAGE, MEMORY_USAGE_REVISIONS } from '../../../src/projections/memory-usage.projection';
import { DEFAULT_SEARCH_TITLE_BOOST } from '../../../src/config/config';
import { SearchMemoryHandler } from '../../../src/queries/memory/search-memory.handler';
import { SearchMemoryQuery } from '../../../src/queries/memory/search-memory.query';
import type { VectorCandidates } from '../../../src/queries/memory/vector-candidates';

const connector = SEARCH_CONNECTOR;

const ITEMS = 40;
/** Chunks per item; the last matches no query (only the vectors can find it). */
const CHUNKS = 5;
const WORDS = ['refund', 'invoice', 'shipping', 'warranty', 'account', 'password', 'delivery', 'return'];

/** Item i's chunk c: a few words chosen by (i, c), so items match a query with different chunks and counts. */
function chunkText(i: number, c: number): string {
  if (c === CHUNKS - 1) return 'opening hours of the front desk';
  return Array.from({ length: 6 }, (_, n) => WORDS[(i * 7 + c * 3 + n * n) % WORDS.length]).join(' ');
}

describe('SearchMemoryHandler with embeddings: the results’ chunks read after fusion', () => {
  let db: SqliteDatabase;
  let readStore: SqliteReadStore;
  let index: SqliteSearchIndex;
  const asked: SearchQuery[] = [];
  /** Which index each handler asked, in order. */
  const order: string[] = [];

  beforeEach(async () => {
    db = openSqlite({ path: ':memory:' });
    readStore = new SqliteReadStore(db);
    index = new SqliteSearchIndex(db);
    for (const collection of [MEMORY_CORPUS, MEMORY_ITEMS, MEMORY_USAGE, MEMORY_USAGE_REVISIONS]) {
      await readStore.ensureCollection(collection, []);
    }
    const items = Array.from({ length: ITEMS }, (_, n) => n + 1);
    await readStore.commit('memory', 0, { position: 1, version: 1 }, [
      { op: 'put', collection: MEMORY_CORPUS, doc: { id: '7', index_revision: 'idx_v1_test' } },
      ...items.map((id) => ({
        op: 'put' as const,
        collection: MEMORY_ITEMS,
        doc: {
          id: String(id),
          memory_item_id: id,
          memory_source_id: id,
          organization_id: 7,
          type: 'document',
          title: `Item ${id}`,
          summary: `Summary ${id}`,
          visibility: 'organization_internal',
          owner_client_key: null,
          lifecycle_status: 'active',
          revision: 1,
        },
      })),
    ]);
    await index.upsert(
      items.flatMap((id) =>
        Array.from({ length: CHUNKS }, (_, c) => ({
          id: `chunk-${id * 10 + c}`,
          organization_id: '7',
          title: `Item ${id}`,
          body: chunkText(id, c),
          fields: {
            memory_item_id: id,
            memory_chunk_id: id * 10 + c,
            visibility: 'organization_internal',
            owner_client_key: null,
            expires_at_ms: null,
          },
          version: 1,
        })),
      ),
    );
    asked.length = 0;
  });

  afterEach(async () => {
    await index.close();
    await readStore.close();
    db.close();
  });

  /** A handler over the index (asks recorded; `upFront`: every lexical ask gets 10 members, as before). */
  function handler(upFront: boolean): SearchMemoryHandler {
    const seen: SearchIndex = {
      search: (query: SearchQuery) => {
        asked.push(query);
        order.push('lexical');
        const collapse = query.collapse && upFront ? { ...query.collapse, max_members: 10 } : query.collapse;
        return index.search({ ...query, collapse });
      },
    } as unknown as SearchIndex;
    // Semantic hits: chunks of items the lexical ranking has (one of its best chunks and one it does not match),
    // and of items it does not.
    const semantic = [
      { memory_item_id: 3, memory_chunk_id: 31, score: 0.9 },
      { memory_item_id: 12, memory_chunk_id: 124, score: 0.88 },
      { memory_item_id: 3, memory_chunk_id: 34, score: 0.85 },
      { memory_item_id: 25, memory_chunk_id: 252, score: 0.8 },
      { memory_item_id: 40, memory_chunk_id: 401, score: 0.7 },
    ];
    const vectors = {
      enabled: true,
      search: async () => {
        order.push('semantic');
        return semantic;
      },
    } as unknown as VectorCandidates;
    return new SearchMemoryHandler(seen, readStore, new SystemClock(), vectors, {
      searchTitleBoost: DEFAULT_SEARCH_TITLE_BOOST,
    });
  }

  it.each([
    ['refund warranty', 5],
    ['refund warranty', 10],
    ['invoice delivery password', 3],
    ['shipping', 20],
  ])('returns what asking every member up front returns (%s, limit %d)', async (text, limit) => {
    const search = (h: SearchMemoryHandler) =>
      h.execute(new SearchMemoryQuery(connector, text, limit, null, false));
    const expected = await search(handler(true));
    asked.length = 0;
    order.length = 0;
    const found = await search(handler(false));
    // The query's embedding is asked for first (its round trip overlaps the lexical search).
    expect(order).toEqual(['semantic', 'lexical', 'lexical']);
    expect(found).toEqual(expected);
    // Several chunks per result where the lexical search matched several: the members were read.
    expect(found.items.some((result) => result.method !== 'semantic' && result.chunk_ids.length > 1)).toBe(
      true,
    );
    // A lexical result's chunk only the vectors found comes after its matching ones.
    const hybrid = found.items.filter((result) => result.method === 'hybrid');
    expect(hybrid.some((result) => result.chunk_ids.at(-1) === result.item.memory_item_id * 10 + 4)).toBe(
      true,
    );
    // The candidates with one member each, then the members of the lexical results only.
    expect(asked.map((query) => query.collapse?.max_members)).toEqual([1, 10]);
    expect(asked[0].limit).toBe(limit * 10);
    const lexical = found.items.filter((result) => result.method !== 'semantic');
    expect(asked[1].collapse?.values).toEqual(lexical.map((result) => result.item.memory_item_id));
    expect(asked[1]).toMatchObject({
      filters: asked[0].filters,
      any_of: asked[0].any_of,
      limit: lexical.length,
    });
  });
});

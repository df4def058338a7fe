/**
 * Issue 32, "each text stored once": on the embedded stores a chunk's text lives in the memory read model only;
 * the search index keeps titles, fields and postings (memory-chunk-bodies.ts). Over HTTP, across revisions of
 * multi-section documents, another document beside them, and an archive: excerpts come from the read model,
 * nothing of an older revision is found, no search row keeps a body, and every old posting was removed by its
 * text (the read model still held it when the index was written), never by the fallback search of a partition.
 */
import { ArchiveMemoryItemCommand } from '../../src/commands/memory/archive-memory-item.command';
import { operatorContext } from '../../src/commands/shared/command-context';
import { ProjectionRunner } from '../../src/projections/projection-runner';
import { MEMORY_ITEMS, type MemoryItemDocument } from '../../src/projections/memory.projection';
import type { SqliteSearchIndex } from '../../src/infrastructure/search/sqlite/sqlite-search-index';
import type { SearchDocument } from '../../src/infrastructure/search/search-index.port';
import { createConnector, createOrganization } from '../support/fixtures';
import { ALL_MEMORY, MEMORY, ingest } from '../support/memory-fixtures';
import { http, startTestApp, type TestApp } from '../support/test-app';

const HANDBOOK = [
  `# Clinic handbook\n\n## Opening hours\n\nThe clinic opens at 08:00 on weekdays; the quokka desk greets patients.\n\n## Prices\n\nA cleaning costs CHF 120 and a checkup CHF 80.\n\n## Parking\n\nThe garage behind the clinic has twelve bays for patients.\n`,
  `# Clinic handbook\n\n## Opening hours\n\nThe clinic opens at 07:30 on weekdays; the wombat desk greets patients.\n\n## Prices\n\nA cleaning costs CHF 125 and a checkup CHF 85.\n\n## Parking\n\nThe garage behind the clinic has twelve bays for patients.\n`,
  `# Clinic handbook\n\n## Opening hours\n\nClosed on Sundays; the numbat desk answers the phone.\n\n## Holidays\n\n${'The clinic closes between Christmas and New Year. '.repeat(30)}\n`,
];

describe('memory search with chunk text stored once (the read model)', () => {
  let t: TestApp;
  let token: string;
  let org: number;

  beforeAll(async () => {
    t = await startTestApp();
    org = (await createOrganization(t.commands, 'Bodies once')).organization_id;
    token = (await createConnector(t.commands, org, ALL_MEMORY)).token;
  });
  afterAll(() => t.close());

  const search = async (query: string) => {
    const res = await http(t.baseUrl, 'POST', `${MEMORY}/search`, {
      token,
      body: { query, include_context_package: true },
    });
    expect(res.status).toBe(200);
    return res.body as {
      results: Array<{ memory_item_id: number }>;
      context_package: { context: string };
    };
  };
  const index = () => t.stores.searchIndex as SqliteSearchIndex;
  const bodiesKept = () =>
    t.stores.sqlitePath === null
      ? -1
      : (index() as unknown as { db: { prepare(sql: string): { pluck(): { get(): number } } } }).db
          .prepare('SELECT coalesce(sum(length(body)), 0) FROM search_index_documents')
          .pluck()
          .get();

  it('finds each revision by its own words with excerpts, and never an older revision’s', async () => {
    const other = await ingest(
      t.commands,
      org,
      'Lab manual',
      'The lab calibrates the quokka centrifuge monthly.',
    );
    let item = 0;
    const animals = ['quokka', 'wombat', 'numbat'];
    for (const [n, content] of HANDBOOK.entries()) {
      item = (await ingest(t.commands, org, 'Handbook', content, { document_key: 'handbook' }))
        .memory_item_id;
      const found = await search(`${animals[n]} desk`);
      expect(found.results.map((r) => r.memory_item_id)).toContain(item);
      expect(found.context_package.context).toContain(`${animals[n]} desk`);
      for (const old of animals.slice(0, n)) {
        const stale = await search(old);
        expect(stale.results.map((r) => r.memory_item_id)).not.toContain(item);
      }
    }
    // The other document's chunk, whose word an older revision shared, is still found with its excerpt.
    const lab = await search('quokka centrifuge');
    expect(lab.results.map((r) => r.memory_item_id)).toEqual([other.memory_item_id]);
    expect(lab.context_package.context).toContain('calibrates the quokka centrifuge');

    await t.commands.execute(
      new ArchiveMemoryItemCommand(org, other.memory_item_id, operatorContext('test')),
    );
    expect(await t.app.get(ProjectionRunner).waitFor(await t.stores.eventStore.headPosition(), 10_000)).toBe(
      true,
    );
    expect((await search('quokka centrifuge')).results).toEqual([]);

    expect(bodiesKept()).toBe(0);
    expect(index().unindexedWithoutText).toBe(0);
    // What get()/dump() give is the read model's chunk text, chunk by chunk.
    const handbook = await t.stores.readStore.get<MemoryItemDocument>(MEMORY_ITEMS, String(item));
    const dumped: SearchDocument[] = [];
    for await (const doc of t.stores.searchIndex.dump()) dumped.push(doc);
    const chunks = handbook?.chunks ?? [];
    expect(chunks.length).toBeGreaterThan(1);
    for (const chunk of chunks) {
      const doc = dumped.find((d) => d.fields.memory_chunk_id === chunk.memory_chunk_id);
      expect(doc?.body).toBe(chunk.text);
    }
  });
});

import { ArchiveMemoryItemCommand } from '../../src/commands/memory/archive-memory-item.command';
import { operatorContext } from '../../src/commands/shared/command-context';
import { MEMORY_CORPUS, type MemoryCorpusDocument } from '../../src/projections/memory.projection';
import { createConnector, createOrganization } from '../support/fixtures';
import { ALL_MEMORY, MEMORY, ingest } from '../support/memory-fixtures';
import { http, startTestApp, type TestApp } from '../support/test-app';

/**
 * The corpus revision and the index revision (reported by replies, recorded in every recall trace) move exactly
 * when the organization's searchable content changes: a new item, a revision, an archive; never for unchanged
 * re-ingestion, and never because of another organization.
 */
describe('memory corpus and index revisions', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t.close());

  it('move with every content change of the organization and only then', async () => {
    const org = (await createOrganization(t.commands, 'Revisions')).organization_id;
    const otherOrg = (await createOrganization(t.commands, 'Elsewhere')).organization_id;
    const token = (await createConnector(t.commands, org, ALL_MEMORY)).token;
    const revisions = async (): Promise<{ corpus: string; index: string }> => {
      const corpus = await t.stores.readStore.get<MemoryCorpusDocument>(MEMORY_CORPUS, String(org));
      const search = await http(t.baseUrl, 'POST', `${MEMORY}/search`, { token, body: { query: 'otter' } });
      const [trace] = await t.stores.eventStore.readStream(`recall-trace-${search.body.trace_id}`);
      return { corpus: corpus?.corpus_revision ?? 'none', index: String(trace.data.index_revision) };
    };
    const key = { document_key: 'otter-doc' };

    await ingest(t.commands, org, 'Otters', 'Otter feeding at ten.', key);
    const first = await revisions();
    expect(first.corpus).toMatch(/^crv_[0-9a-f]{16}$/);
    expect(first.index).toMatch(/^idx_v\d+_[0-9a-f]{16}$/);

    await ingest(t.commands, org, 'Otters', 'Otter feeding at ten.', key);
    expect(await revisions()).toEqual(first);
    await ingest(t.commands, otherOrg, 'Otters', 'Otter feeding at ten.');
    expect(await revisions()).toEqual(first);

    const second = await ingest(t.commands, org, 'Otter pool', 'The otter pool is heated.');
    const added = await revisions();
    expect(added.corpus).not.toBe(first.corpus);
    expect(added.index).not.toBe(first.index);

    await ingest(t.commands, org, 'Otters', 'Otter feeding at eleven.', key);
    const revised = await revisions();
    expect(revised.corpus).not.toBe(added.corpus);
    expect(revised.index).not.toBe(added.index);

    await t.commands.execute(new ArchiveMemoryItemCommand(org, second.memory_item_id, operatorContext('t')));
    const archived = await revisions();
    expect(new Set([first.corpus, added.corpus, revised.corpus, archived.corpus]).size).toBe(4);
    expect(new Set([first.index, added.index, revised.index, archived.index]).size).toBe(4);
  });
});

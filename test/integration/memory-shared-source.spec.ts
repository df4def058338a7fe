import { CommandBus } from '@nestjs/cqrs';
import { IngestDocumentCommand, type DocumentInput } from '../../src/commands/memory/ingest-document.command';
import { operatorContext } from '../../src/commands/shared/command-context';
import { MEMORY_ITEMS, MEMORY_SOURCES } from '../../src/projections/memory.projection';
import { createOrganization } from '../support/fixtures';
import { startTestApp, type TestApp } from '../support/test-app';

/**
 * The records of one JSON/JSONL file share one memory source (`source_key`: the file's key): one
 * MemorySourceRegistered for the file, not one per record. A document claimed before it shared its file's source
 * keeps the source its claim names.
 */
describe('documents sharing a source (the records of one file)', () => {
  let t: TestApp;
  let commands: CommandBus;
  beforeAll(async () => {
    t = await startTestApp();
    commands = t.app.get(CommandBus);
  });
  afterAll(async () => t.close());

  const record = (key: string, content: string, source_key: string | null): DocumentInput => ({
    document_key: `${source_key ?? 'file:kb/old.jsonl'}#${key}`,
    source_key,
    title: `Record ${key}`,
    content: `# Record ${key}\n\n${content}\n\n## Notes\n\nSection two of record ${key}.`,
    format: 'markdown',
    type: 'document',
    audience: 'internal',
    authority_level: 'reference',
    source_label: 'kb/records.jsonl',
    source_uri: `https://kb.example.com/${key}`,
    source_date: null,
    effective_at: null,
    expires_at: null,
    summary: null,
  });
  const ingest = (org: number, document: DocumentInput) =>
    commands.execute(new IngestDocumentCommand(org, document, operatorContext('test')));
  const sourceEvents = async () =>
    (await t.stores.eventStore.readAll({ after_position: 0 })).filter(
      (e) => e.type === 'MemorySourceRegistered',
    );

  it('registers the file as one source for all its records, once, per organization', async () => {
    const org = (await createOrganization(commands, 'Shared Co')).organization_id;
    const other = (await createOrganization(commands, 'Other Co')).organization_id;
    const before = (await sourceEvents()).length;
    const results = [];
    for (const key of ['a', 'b', 'c'])
      results.push(await ingest(org, record(key, `Text ${key}.`, 'file:kb/records.jsonl')));
    expect(results.map((r) => r.status)).toEqual(['created', 'created', 'created']);
    const sourceId = results[0].memory_source_id;
    expect(results.map((r) => r.memory_source_id)).toEqual([sourceId, sourceId, sourceId]);
    expect(new Set(results.map((r) => r.memory_item_id)).size).toBe(3);
    const registered = (await sourceEvents()).slice(before);
    expect(registered.map((e) => e.data)).toEqual([
      {
        memory_source_id: sourceId,
        organization_id: org,
        source_type: 'document',
        label: 'kb/records.jsonl',
        source_uri: null,
      },
    ]);
    expect(registered[0].stream).toMatch(/^memory-source-key-[0-9a-f]{64}$/);
    // Each record keeps its own URL; the items read their source's label.
    const item = await t.stores.readStore.get(MEMORY_ITEMS, String(results[1].memory_item_id));
    expect(item).toMatchObject({ source_uri: 'https://kb.example.com/b', source_label: 'kb/records.jsonl' });
    expect(await t.stores.readStore.get(MEMORY_SOURCES, String(sourceId))).toMatchObject({
      label: 'kb/records.jsonl',
    });

    // Re-ingested unchanged, and changed: no source registered again; another organization's file is its own.
    expect((await ingest(org, record('a', 'Text a.', 'file:kb/records.jsonl'))).status).toBe('unchanged');
    const revised = await ingest(org, record('b', 'Text b, revised.', 'file:kb/records.jsonl'));
    expect(revised).toMatchObject({ status: 'revised', memory_source_id: sourceId });
    const elsewhere = await ingest(other, record('a', 'Text a.', 'file:kb/records.jsonl'));
    expect(elsewhere.memory_source_id).not.toBe(sourceId);
    expect((await sourceEvents()).length).toBe(before + 2);
  });

  it('a document that was its own source keeps it when its file later shares one', async () => {
    const org = (await createOrganization(commands, 'Upgraded Co')).organization_id;
    const old = await ingest(org, { ...record('x', 'Old text.', null), document_key: 'file:kb/up.jsonl#x' });
    const shared = { ...record('x', 'New text.', 'file:kb/up.jsonl'), document_key: 'file:kb/up.jsonl#x' };
    const revised = await ingest(org, shared);
    expect(revised).toMatchObject({
      status: 'revised',
      memory_item_id: old.memory_item_id,
      memory_source_id: old.memory_source_id,
    });
    const added = await ingest(org, { ...shared, document_key: 'file:kb/up.jsonl#y' });
    expect(added.memory_source_id).not.toBe(old.memory_source_id);
  });
});

import { IngestDocumentCommand, type DocumentInput } from '../../src/commands/memory/ingest-document.command';
import { operatorContext } from '../../src/commands/shared/command-context';
import { seedDemo } from '../../src/demo/seed-demo';
import { createOrganization } from '../support/fixtures';
import { http, startTestApp, type TestApp } from '../support/test-app';

describe('demo seed', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t.close());

  it('creates the demo once; later runs append nothing and print no token', async () => {
    const first = await seedDemo(t.app);
    expect(first).toMatchObject({
      created: true,
      slug: 'harbor-dental',
      token: expect.stringMatching(/^cairn_/),
    });
    expect(first.knowledge_items.map((k) => k.status)).toEqual(['created', 'created', 'created', 'created']);
    const me = await http(t.baseUrl, 'GET', '/app/api/tool-connectors/v1/connector', { token: first.token! });
    expect(me.body).toMatchObject({
      organization_id: first.organization_id,
      connector_id: first.connector_id,
    });
    const limited = await http(t.baseUrl, 'GET', '/app/api/tool-connectors/v1/connector', {
      token: first.limited_token!,
    });
    expect(limited.body.capabilities).toEqual(['memory_search']);

    const head = await t.stores.eventStore.headPosition();
    const second = await seedDemo(t.app);
    expect(second).toMatchObject({
      created: false,
      organization_id: first.organization_id,
      chatbot_id: first.chatbot_id,
      connector_id: first.connector_id,
      token: null,
      limited_token: null,
    });
    expect(second.knowledge_items.map((k) => k.status)).toEqual([
      'unchanged',
      'unchanged',
      'unchanged',
      'unchanged',
    ]);
    expect(await t.stores.eventStore.headPosition()).toBe(head);
  });
});

describe('document ingestion', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t.close());

  const doc = (content: string): DocumentInput => ({
    document_key: 'docs/faq.md',
    title: 'FAQ',
    content,
    format: 'markdown',
    type: 'faq',
    audience: 'customer_safe',
    authority_level: 'approved_source',
    source_label: 'docs',
    source_uri: null,
    source_date: null,
    effective_at: null,
    expires_at: null,
    summary: null,
  });

  it('unchanged content appends nothing; changed content appends one revision with new chunks', async () => {
    const org = await createOrganization(t.commands);
    const ingest = (content: string) =>
      t.commands.execute(
        new IngestDocumentCommand(org.organization_id, doc(content), operatorContext('test')),
      );
    const first = await ingest('# Q\n\nAnswer one.');
    expect(first).toMatchObject({ status: 'created', revision: 1, chunks: 1 });
    const head = await t.stores.eventStore.headPosition();
    expect(await ingest('# Q\n\nAnswer one.')).toMatchObject({ status: 'unchanged', revision: 1 });
    expect(await t.stores.eventStore.headPosition()).toBe(head);

    const revised = await ingest('# Q\n\nAnswer two.\n\n# R\n\nMore.');
    expect(revised).toMatchObject({
      status: 'revised',
      revision: 2,
      chunks: 2,
      memory_item_id: first.memory_item_id,
    });
    const events = await t.stores.eventStore.readStream(`memory-item-${first.memory_item_id}`);
    expect(events.map((e) => e.type)).toEqual(['MemoryItemCreated', 'MemoryItemRevised']);
    expect(events[1].metadata.organization_id).toBe(String(org.organization_id));
  });

  it('the same document key in another organization is a separate item', async () => {
    const a = await createOrganization(t.commands);
    const b = await createOrganization(t.commands);
    const ra = await t.commands.execute(
      new IngestDocumentCommand(a.organization_id, doc('Same.'), operatorContext('test')),
    );
    const rb = await t.commands.execute(
      new IngestDocumentCommand(b.organization_id, doc('Same.'), operatorContext('test')),
    );
    expect(ra.memory_item_id).not.toBe(rb.memory_item_id);
    expect(rb.status).toBe('created');
  });

  it('rejects an empty document with a 422-class error and records nothing', async () => {
    const org = await createOrganization(t.commands);
    const head = await t.stores.eventStore.headPosition();
    await expect(
      t.commands.execute(
        new IngestDocumentCommand(org.organization_id, { ...doc('  '), title: '' }, operatorContext('test')),
      ),
    ).rejects.toMatchObject({ status: 422, code: 'validation_failed' });
    expect(await t.stores.eventStore.headPosition()).toBe(head);
  });
});

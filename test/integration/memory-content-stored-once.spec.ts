/**
 * An item's text is stored once in the read model: its chunks and a layout, not its content as well. REST and MCP
 * fetches assemble the content from them byte for byte, over several revisions of multi-section documents; a
 * read model of the older layout (content beside the chunks) is rebuilt when Cairn opens it.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { loadConfig } from '../../src/config/config';
import { openStores } from '../../src/infrastructure/stores';
import { assembleContent } from '../../src/projections/content-layout';
import { MEMORY_ITEMS, type MemoryItemDocument } from '../../src/projections/memory.projection';
import { createConnector, createOrganization } from '../support/fixtures';
import { connectMcp } from '../support/mcp-client';
import { ALL_MEMORY, MEMORY, ingest } from '../support/memory-fixtures';
import { makeTempDir } from '../support/temp-dir';
import { http, startTestApp, type TestApp } from '../support/test-app';

const REVISIONS = [
  `# Clinic handbook\n\nWelcome to the **Lake Street** clinic; see [the map](https://clinic.example.com/map?x=1).\n\n## Opening hours\n\nMonday to Friday: 08:00–18:00.  \nSaturday: _by appointment_.\n\n## Prices\n\n\`\`\`\ncleaning   CHF 120\n\`\`\`\n`,
  `# Clinic handbook\n\nWelcome to the **Lake Street** clinic.\n\n## Opening hours\n\nMonday to Friday: 07:30–18:00.\n\n## Prices\n\n- cleaning CHF 125\n- whitening CHF 300 🦷\n\n### Notes\n\n${'Patients should arrive ten minutes early. '.repeat(50)}\n`,
  `# Clinic handbook\r\n\r\n## Opening hours\r\n\r\nClosed on Sundays.\r\n\r\n## Parking\r\n\r\nThe garage is *two* minutes away.\r\n`,
];
const TEXT_REVISIONS = [
  'First paragraph,\r\nstill the first.  \r\n\r\n\r\n   Second\tparagraph \n\nthird\n\n\n',
  `${'A plain sentence about the clinic. '.repeat(80)}\n\nLast line.`,
];

describe('memory item text stored once', () => {
  const temp = makeTempDir();
  let t: TestApp | null = null;
  let mcp: Client | null = null;
  afterAll(async () => {
    await mcp?.close();
    await t?.close();
    temp.cleanup();
  });

  const stored = async (app: TestApp, id: number): Promise<MemoryItemDocument> => {
    const doc = await app.stores.readStore.get<MemoryItemDocument>(MEMORY_ITEMS, String(id));
    if (!doc) throw new Error(`no item ${id}`);
    return doc;
  };

  it('keeps chunks and a layout, and fetches return each revision’s content byte for byte', async () => {
    t = await startTestApp({}, temp.dir);
    const app = t;
    const org = (await createOrganization(app.commands, 'Stored once')).organization_id;
    const token = (await createConnector(app.commands, org, ALL_MEMORY)).token;
    mcp = await connectMcp(app.baseUrl, token);
    const client = mcp;
    const fetched = async (id: number): Promise<{ rest: unknown; mcp: unknown }> => {
      const rest = await http(app.baseUrl, 'GET', `${MEMORY}/items/${id}`, { token });
      expect(rest.status).toBe(200);
      const tool = await client.callTool({ name: 'memory_fetch', arguments: { memory_item_id: id } });
      return { rest: rest.body.content, mcp: (tool.structuredContent as { content: unknown }).content };
    };

    for (const [revisions, format] of [
      [REVISIONS, 'markdown'],
      [TEXT_REVISIONS, 'text'],
    ] as const) {
      const key = { document_key: `handbook-${format}`, format };
      for (const [n, content] of revisions.entries()) {
        const { memory_item_id: id } = await ingest(app.commands, org, 'Handbook', content, key);
        const doc = await stored(app, id);
        expect(doc.revision).toBe(n + 1);
        expect(doc).not.toHaveProperty('content');
        expect(doc.chunks.length).toBeGreaterThan(0);
        // The layout copies the chunks' text instead of holding it again.
        const copied = doc.content_layout.reduce<number>(
          (sum, op) => sum + (typeof op === 'number' && op > 0 ? op : 0),
          0,
        );
        const chunkChars = doc.chunks.reduce((sum, chunk) => sum + chunk.text.length, 0);
        expect(copied).toBeGreaterThan(chunkChars * 0.9);
        expect(assembleContent(doc.content_layout, doc.chunks) === content).toBe(true);
        const both = await fetched(id);
        expect(both.rest === content).toBe(true);
        expect(both.mcp === content).toBe(true);
      }
    }
  });

  it('rebuilds a read model of the older layout (content beside the chunks) when Cairn opens it', async () => {
    const app = t!;
    const items = await app.stores.readStore.find<MemoryItemDocument>(MEMORY_ITEMS, { filter: {} });
    expect(items.items.length).toBe(2);
    await mcp?.close();
    mcp = null;
    await app.close();
    t = null;

    // The older layout, as version 2 of the memory projection wrote it.
    const stores = await openStores(loadConfig({ CAIRN_DATA_DIR: temp.dir }));
    const checkpoint = await stores.readStore.getCheckpoint('memory');
    expect(checkpoint?.version).toBeGreaterThan(2);
    const older = items.items.map(({ content_layout, ...rest }) => ({
      ...rest,
      content: assembleContent(content_layout, rest.chunks),
    }));
    expect(
      await stores.readStore.commit(
        'memory',
        checkpoint!.position,
        { position: checkpoint!.position, version: 2 },
        older.map((doc) => ({ op: 'put' as const, collection: MEMORY_ITEMS, doc })),
      ),
    ).toBe(true);
    await stores.close();

    t = await startTestApp({}, temp.dir);
    const reopened = t;
    const deadline = Date.now() + 30_000;
    for (;;) {
      const checkpointNow = await reopened.stores.readStore.getCheckpoint('memory');
      if (checkpointNow?.version === checkpoint!.version && checkpointNow.position >= checkpoint!.position)
        break;
      if (Date.now() > deadline) throw new Error('the memory projection was not rebuilt');
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    for (const item of older) {
      const doc = await stored(reopened, item.memory_item_id);
      expect(doc).not.toHaveProperty('content');
      expect(assembleContent(doc.content_layout, doc.chunks) === item.content).toBe(true);
    }
  });
});

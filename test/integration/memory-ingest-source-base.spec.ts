import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cairn } from '../support/cli';
import { readOpenedEvents } from '../support/server-process';
import { makeTempDir } from '../support/temp-dir';

/** `memory:ingest ORG FOLDER --source-base URL`: documents of a folder get public source URIs from their paths. */
describe('memory:ingest --source-base', () => {
  jest.setTimeout(60_000);
  const data = makeTempDir('cairn-source-base-');
  const docs = makeTempDir('cairn-source-base-docs-');
  afterAll(() => {
    data.cleanup();
    docs.cleanup();
  });

  it('gives each document without a URL of its own the base plus its path below the folder', async () => {
    const root = join(docs.dir, 'kb');
    mkdirSync(join(root, 'help'), { recursive: true });
    writeFileSync(join(root, 'help', 'opening hours.md'), '# Opening hours\n\nOpen 9 to 17.\n');
    writeFileSync(
      join(root, 'own.md'),
      '---\nurl: https://elsewhere.example.org/own\n---\n# Own\n\nIt has a URL.\n',
    );
    const org = (await cairn(data.dir, 'org:create', '--name', 'Base')).json.organization_id;
    const run = await cairn(
      data.dir,
      'memory:ingest',
      String(org),
      root,
      '--source-base',
      'https://docs.example.com/kb',
    );
    expect(run.code).toBe(0);
    expect(run.json.totals).toMatchObject({ created: 2 });
    const created = (await readOpenedEvents(data.dir)).filter((e) => e.type === 'MemoryItemCreated');
    const uris = Object.fromEntries(created.map((e) => [e.data.title, e.data.source_uri]));
    expect(uris).toEqual({
      'Opening hours': 'https://docs.example.com/kb/help/opening%20hours.md',
      Own: 'https://elsewhere.example.org/own',
    });
  });

  it('refuses a base that is not a public http(s) URL', async () => {
    const org = (await cairn(data.dir, 'org:create', '--name', 'Base two')).json.organization_id;
    const run = await cairn(data.dir, 'memory:ingest', String(org), docs.dir, '--source-base', 'file:///etc');
    expect(run.code).not.toBe(0);
    expect(run.json.error.details[0]).toMatchObject({ field: '--source-base' });
  });
});

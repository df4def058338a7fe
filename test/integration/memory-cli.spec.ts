import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openSqlite } from '../../src/infrastructure/sqlite/sqlite-connection';
import { readOpenedEvents } from '../support/server-process';
import { cairn } from '../support/cli';
import { makeTempDir } from '../support/temp-dir';

interface Item {
  memory_item_id: number;
  memory_source_id: number;
  status: string;
  revision: number;
  chunks: number;
  path: string;
  document_key: string;
}

describe('memory:ingest, memory:revise, memory:archive (real CLI processes)', () => {
  jest.setTimeout(120_000);
  const data = makeTempDir();
  const files = makeTempDir('cairn-kb-');
  afterAll(() => {
    data.cleanup();
    files.cleanup();
  });
  const run = (...args: string[]) => cairn(data.dir, ...args);
  const kb = join(files.dir, 'kb');
  const write = (path: string, content: string) => {
    mkdirSync(join(kb, path, '..'), { recursive: true });
    writeFileSync(join(kb, path), content);
  };
  /** The event store's head, read from the SQLite file. */
  const head = (): number => {
    const db = openSqlite({ path: join(data.dir, 'cairn.sqlite'), readonly: true });
    try {
      return (db.prepare('SELECT COALESCE(MAX(position), 0) AS head FROM events').get() as { head: number })
        .head;
    } finally {
      db.close();
    }
  };
  const byKey = (items: Item[]) => new Map(items.map((item) => [item.document_key, item]));

  let org = '';
  let otherOrg = '';
  let first: Map<string, Item>;

  beforeAll(async () => {
    org = String((await run('org:create', '--name', 'Ingest Co')).json.organization_id);
    otherOrg = String((await run('org:create', '--name', 'Other Co')).json.organization_id);
    write('guide.md', '# Guide\n\nWe open at 9.\n\n## Parking\n\nParking is free behind the clinic.\n');
    write(
      'site/prices.html',
      '<html><head><title>Prices</title><script>SCRIPT</script></head><body><nav>Home</nav>' +
        '<main><h1>Prices</h1><p>A cleaning costs $80.</p></main><footer>FOOTER</footer></body></html>',
    );
    write(
      'records.jsonl',
      `${JSON.stringify({ id: 'r1', title: 'Record one', content: 'First record.' })}\n{"broken": \n` +
        `${JSON.stringify({ id: 'r2', title: 'Record two', text: 'Second record.' })}\n`,
    );
    write('logo.png', 'not really a png');
  });

  it('ingests a directory of Markdown, HTML and JSONL: one JSON object on stdout, skips reported', async () => {
    const res = await run('memory:ingest', org, kb);
    expect(res.code).toBe(0);
    expect(res.stdout.trim().startsWith('{')).toBe(true);
    expect(res.json.ok).toBe(true);
    const items = res.json.items as Item[];
    expect(items.map((item) => [item.document_key, item.status, item.revision])).toEqual([
      ['file:kb/guide.md', 'created', 1],
      ['file:kb/records.jsonl#r1', 'created', 1],
      ['file:kb/records.jsonl#r2', 'created', 1],
      ['file:kb/site/prices.html', 'created', 1],
    ]);
    for (const item of items) {
      expect(item).toMatchObject({
        memory_item_id: expect.any(Number),
        memory_source_id: expect.any(Number),
      });
    }
    // The records of one file share its source; a file of its own is its own source.
    const sources = items.map((item) => item.memory_source_id);
    expect(sources[1]).toBe(sources[2]);
    expect(new Set(sources).size).toBe(3);
    expect(res.json.skipped.map((s: { reason: string }) => s.reason)).toEqual([
      'unsupported_type',
      'invalid_json',
    ]);
    expect(res.json.totals).toMatchObject({ documents: 4, created: 4, skipped: 2, files: 4 });
    expect(res.stderr).toContain('skipped');
    first = byKey(items);

    const guide = first.get('file:kb/guide.md')!;
    expect(guide.chunks).toBe(2);
    const events = await readOpenedEvents(data.dir, `memory-item-${guide.memory_item_id}`);
    expect(events.map((e: { type: string }) => e.type)).toEqual(['MemoryItemCreated']);
    expect(events[0].data).toMatchObject({
      audience: 'internal',
      authority_level: 'reference',
      title: 'Guide',
    });
    const page = first.get('file:kb/site/prices.html')!;
    const pageEvents = await readOpenedEvents(data.dir, `memory-item-${page.memory_item_id}`);
    expect(pageEvents[0].data.content).not.toMatch(/SCRIPT|FOOTER|Home/);
  });

  it('re-ingesting unchanged content appends no event; a changed file revises exactly its item', async () => {
    const before = head();
    const again = await run('memory:ingest', org, `${kb}/`);
    expect(again.code).toBe(0);
    expect((again.json.items as Item[]).map((item) => item.status)).toEqual([
      'unchanged',
      'unchanged',
      'unchanged',
      'unchanged',
    ]);
    expect(head()).toBe(before);

    write('guide.md', '# Guide\n\nWe open at 8 now.\n');
    const changed = await run('memory:ingest', org, kb);
    const items = byKey(changed.json.items as Item[]);
    expect([...items.values()].filter((item) => item.status !== 'unchanged')).toEqual([
      expect.objectContaining({
        document_key: 'file:kb/guide.md',
        status: 'revised',
        revision: 2,
        chunks: 1,
        memory_item_id: first.get('file:kb/guide.md')!.memory_item_id,
      }),
    ]);
    expect(changed.json.totals).toMatchObject({ revised: 1, unchanged: 3, chunks_written: 1 });
    // The single file is the same document as through its directory.
    const single = await run('memory:ingest', org, join(kb, 'guide.md'));
    expect(single.json.items).toEqual([
      expect.objectContaining({ document_key: 'file:kb/guide.md', status: 'unchanged' }),
    ]);
  });

  it('validates options and paths before writing anything', async () => {
    const before = head();
    const cases: Array<[string[], string]> = [
      [['memory:ingest', org, kb, '--audience', 'public'], 'validation_failed'],
      [['memory:ingest', org, kb, '--authority', 'gospel'], 'validation_failed'],
      [['memory:ingest', org, kb, '--expires-at', 'tomorrow'], 'validation_failed'],
      [['memory:ingest', org, kb, '--title', 'One title for many'], 'validation_failed'],
      [
        ['memory:ingest', org, join(kb, 'records.jsonl'), '--source-uri', 'https://x.example/'],
        'validation_failed',
      ],
      [['memory:ingest', org, join(kb, 'guide.md'), '--source-uri', 'ftp://x.example/'], 'validation_failed'],
      [['memory:ingest', org, join(kb, 'missing')], 'validation_failed'],
      [['memory:ingest', '999999', kb], 'not_found'],
      [['memory:ingest', org], 'usage_error'],
      [['memory:revise', org, '1'], 'usage_error'],
      [['memory:archive', org], 'usage_error'],
    ];
    const results = await Promise.all(cases.map(([args]) => run(...args)));
    expect(results.map((res, i) => [cases[i][0].join(' '), res.code, res.json?.error?.code])).toEqual(
      cases.map(([args, code]) => [args.join(' '), 1, code]),
    );
    expect(head()).toBe(before);
  });

  it('a single file takes --title, --source-uri, --audience, --authority and --expires-at', async () => {
    const path = join(files.dir, 'solo', 'policy.txt');
    mkdirSync(join(files.dir, 'solo'), { recursive: true });
    writeFileSync(path, 'Refunds within 30 days.');
    const res = await run(
      'memory:ingest',
      org,
      path,
      '--title',
      'Refund policy',
      '--source-uri',
      'https://clinic.example.com/refunds',
      '--audience',
      'customer_safe',
      '--authority',
      'approved_source',
      '--expires-at',
      '2030-01-01',
    );
    expect(res.code).toBe(0);
    const [item] = res.json.items as Item[];
    const [created] = await readOpenedEvents(data.dir, `memory-item-${item.memory_item_id}`);
    expect(created.data).toMatchObject({
      title: 'Refund policy',
      source_uri: 'https://clinic.example.com/refunds',
      audience: 'customer_safe',
      authority_level: 'approved_source',
      expires_at: '2030-01-01T00:00:00.000Z',
    });
  });

  it('memory:revise revises from a file; the same content changes nothing; other organizations see not_found', async () => {
    const record = first.get('file:kb/records.jsonl#r1')!;
    const id = String(record.memory_item_id);
    const path = join(files.dir, 'revision.txt');
    writeFileSync(path, 'First record, corrected.');
    const revised = await run('memory:revise', org, id, path);
    expect(revised.code).toBe(0);
    expect(revised.json).toMatchObject({
      ok: true,
      memory_item_id: record.memory_item_id,
      status: 'revised',
      revision: 2,
    });
    const events = await readOpenedEvents(data.dir, `memory-item-${id}`);
    // A plain-text file has no title of its own: the item keeps its title.
    expect(events[1].data).toMatchObject({
      title: 'Record one',
      content: 'First record, corrected.',
      revision: 2,
    });
    const before = head();
    expect((await run('memory:revise', org, id, path)).json).toMatchObject({
      status: 'unchanged',
      revision: 2,
    });
    expect(head()).toBe(before);

    const failures = await Promise.all([
      run('memory:revise', otherOrg, id, path),
      run('memory:revise', org, '999999', path),
      run('memory:revise', org, id, kb),
      run('memory:revise', org, id, join(kb, 'records.jsonl')),
    ]);
    expect(failures.map((res) => [res.code, res.json.error.code])).toEqual([
      [1, 'not_found'],
      [1, 'not_found'],
      [1, 'validation_failed'],
      [1, 'validation_failed'],
    ]);
    expect(head()).toBe(before);
  });

  it('memory:archive is idempotent; an archived item cannot be revised and is skipped by ingestion', async () => {
    const page = first.get('file:kb/site/prices.html')!;
    const id = String(page.memory_item_id);
    expect((await run('memory:archive', otherOrg, id)).json.error.code).toBe('not_found');
    expect((await run('memory:archive', org, id)).json).toEqual({
      ok: true,
      memory_item_id: page.memory_item_id,
      archived: true,
      changed: true,
    });
    const before = head();
    expect((await run('memory:archive', org, id)).json).toMatchObject({ changed: false });
    expect(head()).toBe(before);

    const revise = await run('memory:revise', org, id, join(kb, 'guide.md'));
    expect(revise).toMatchObject({ code: 1, json: { error: { code: 'memory_item_archived' } } });
    write('site/prices.html', '<title>Prices</title><p>A cleaning costs $90.</p>');
    const ingest = await run('memory:ingest', org, kb);
    expect(ingest.code).toBe(0);
    expect(ingest.json.skipped).toContainEqual(expect.objectContaining({ reason: 'memory_item_archived' }));
  });

  it('shows a progress bar on stderr for a larger run, never on stdout', async () => {
    const lines = Array.from({ length: 300 }, (_, i) =>
      JSON.stringify({
        id: `n${i}`,
        title: `Note ${i}`,
        content: `Note number ${i}.\n\nIt has two paragraphs.`,
      }),
    );
    writeFileSync(join(files.dir, 'notes.jsonl'), `${lines.join('\n')}\n`);
    const res = await run('memory:ingest', org, join(files.dir, 'notes.jsonl'));
    expect(res.code).toBe(0);
    expect(res.json.totals).toMatchObject({ documents: 300, created: 300 });
    expect(res.stderr).toMatch(/ingesting \|/);
    expect(res.stdout).not.toMatch(/ingesting/);
    process.stderr.write(
      `memory:ingest of 300 small documents: ${res.json.totals.chunks_per_second} chunks/s\n`,
    );
  });
});

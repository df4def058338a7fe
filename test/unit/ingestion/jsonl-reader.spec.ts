import { createWriteStream } from 'node:fs';
import { basename, join } from 'node:path';
import { finished } from 'node:stream/promises';
import { listFiles, readFile } from '../../../src/ingestion/readers/read-documents';
import { MAX_JSONL_LINE_BYTES } from '../../../src/ingestion/readers/reader-types';
import { makeTempDir } from '../../support/temp-dir';
import { documents, OPTIONS, readAll, skips, writeTree } from './reader-helpers';

describe('JSONL reader', () => {
  const temp = makeTempDir();
  afterAll(() => temp.cleanup());

  it('one record per line; blank lines ignored; a bad line is skipped and reading goes on', async () => {
    const lines = [
      JSON.stringify({ id: 'a', title: 'A', content: 'First.' }),
      '',
      '{"id": "b", "content": ',
      JSON.stringify({ title: 'C', text: 'Third.' }),
      '[1, 2]',
      JSON.stringify({ id: 'd', title: 'D' }),
    ];
    const bytes = Buffer.concat([
      Buffer.from(`${lines.join('\r\n')}\n`),
      Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x7d, 0x0a]), // {"\xff"} — not UTF-8
      Buffer.from(JSON.stringify({ id: 'e', content: 'Last, no newline.' })),
    ]);
    writeTree(temp.dir, { 'data.jsonl': bytes });
    const entries = await readAll(join(temp.dir, 'data.jsonl'));
    const root = basename(temp.dir);
    expect(documents(entries).map((d) => [d.document.document_key, d.document.title])).toEqual([
      [`file:${root}/data.jsonl#a`, 'A'],
      [`file:${root}/data.jsonl#3`, 'C'],
      [`file:${root}/data.jsonl#e`, 'Last, no newline.'],
    ]);
    expect(skips(entries).map((s) => [s.reason, s.message.split(':')[0]])).toEqual([
      ['invalid_json', 'line 3'],
      ['not_an_object', 'line 5'],
      ['no_text', 'line 6'],
      ['invalid_utf8', 'line 7'],
    ]);
    // Progress accounting covers the whole file.
    expect(entries.reduce((sum, entry) => sum + entry.bytes, 0)).toBe(bytes.length);
  });

  it('skips a line over the bound without holding it, then reads the next line', async () => {
    const path = join(temp.dir, 'long.jsonl');
    const out = createWriteStream(path);
    out.write(`{"id":"big","content":"${'x'.repeat(MAX_JSONL_LINE_BYTES)}"}\n`);
    out.end(`${JSON.stringify({ id: 'small', content: 'ok' })}\n`);
    await finished(out);
    const entries = await readAll(path);
    expect(
      entries.map((e) => [e.kind, e.kind === 'skipped' ? e.reason : e.document.document_key.split('#')[1]]),
    ).toEqual([
      ['skipped', 'too_large'],
      ['document', 'small'],
    ]);
  });

  it('streams: the first record arrives before the rest of a large file is read', async () => {
    const path = join(temp.dir, 'many.jsonl');
    const out = createWriteStream(path);
    for (let i = 0; i < 20_000; i++)
      out.write(`${JSON.stringify({ id: i, content: `record ${i} `.repeat(20) })}\n`);
    out.end();
    await finished(out);
    const [file] = await listFiles(path);
    const before = process.memoryUsage().heapUsed;
    let first = '';
    for await (const entry of readFile(file, OPTIONS)) {
      if (entry.kind === 'document') first = entry.document.document_key;
      break;
    }
    expect(first.endsWith('#0')).toBe(true);
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(file.size);
  });

  it('an empty file is skipped', async () => {
    writeTree(temp.dir, { 'empty/none.jsonl': '\n\n' });
    expect(skips(await readAll(join(temp.dir, 'empty'))).map((s) => s.reason)).toEqual(['empty']);
  });
});

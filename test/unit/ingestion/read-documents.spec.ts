import { symlinkSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { formatOf, listFiles, readDocuments } from '../../../src/ingestion/readers/read-documents';
import type { ReadEntry } from '../../../src/ingestion/readers/reader-types';
import { makeTempDir } from '../../support/temp-dir';
import { OPTIONS, writeTree } from './reader-helpers';

describe('reading directories', () => {
  const temp = makeTempDir();
  afterAll(() => temp.cleanup());
  const docs = () => join(temp.dir, 'docs');

  beforeAll(() => {
    writeTree(docs(), {
      'b.md': '# B\n\nBee.',
      'a.txt': 'Ay.',
      'sub/c.html': '<title>C</title><p>Sea.</p>',
      'sub/d.jsonl': `${JSON.stringify({ id: 'd1', content: 'Dee one.' })}\n${JSON.stringify({ id: 'd2', content: 'Dee two.' })}\n`,
      'sub/e.JSON': JSON.stringify({ id: 'e', content: 'Ee.' }),
      'image.png': Buffer.from([0x89, 0x50, 0x4e, 0x47]),
      README: 'no extension',
      '.hidden.md': '# Hidden',
      '.git/config.md': '# Git',
      'node_modules/pkg/readme.md': '# Dependency',
    });
    symlinkSync(docs(), join(docs(), 'sub', 'loop'));
  });

  it('lists files recursively in sorted order, skipping dotfiles and node_modules, each directory once', async () => {
    const files = await listFiles(docs());
    expect(files.map((file) => [file.label, file.format])).toEqual([
      ['docs/README', null],
      ['docs/a.txt', 'text'],
      ['docs/b.md', 'markdown'],
      ['docs/image.png', null],
      ['docs/sub/c.html', 'html'],
      ['docs/sub/d.jsonl', 'jsonl'],
      ['docs/sub/e.JSON', 'json'],
    ]);
  });

  it('reads every format; unknown types are skipped and reported', async () => {
    const entries: ReadEntry[] = [];
    for await (const entry of readDocuments(docs(), OPTIONS)) entries.push(entry);
    expect(
      entries.map((e) =>
        e.kind === 'document' ? e.document.document_key : `skipped ${e.reason} ${basename(e.path)}`,
      ),
    ).toEqual([
      'skipped unsupported_type README',
      'file:docs/a.txt',
      'file:docs/b.md',
      'skipped unsupported_type image.png',
      'file:docs/sub/c.html',
      'file:docs/sub/d.jsonl#d1',
      'file:docs/sub/d.jsonl#d2',
      'file:docs/sub/e.JSON#e',
    ]);
  });

  it('keys do not depend on the working directory or the spelling of the path', async () => {
    const cwd = process.cwd();
    try {
      process.chdir(temp.dir);
      const fromParent = (await listFiles('docs')).map((file) => file.key);
      process.chdir(join(temp.dir, 'docs', 'sub'));
      const fromInside = (await listFiles('../../docs/')).map((file) => file.key);
      expect(fromInside).toEqual(fromParent);
      // A single file is keyed by its parent directory's name: the same key as through its directory.
      expect((await listFiles(relative(process.cwd(), join(docs(), 'b.md'))))[0].key).toBe('file:docs/b.md');
      expect((await listFiles('c.html'))[0].key).toBe('file:sub/c.html');
    } finally {
      process.chdir(cwd);
    }
  });

  it('a PATH that does not exist is a validation error', async () => {
    await expect(listFiles(join(temp.dir, 'missing'))).rejects.toMatchObject({ status: 422 });
  });

  it('maps extensions case-insensitively', () => {
    expect(['x.MD', 'x.markdown', 'x.htm', 'x.ndjson', 'x.pdf'].map(formatOf)).toEqual([
      'markdown',
      'markdown',
      'html',
      'jsonl',
      null,
    ]);
  });
});

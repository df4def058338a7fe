import { join } from 'node:path';
import { prepareContent } from '../../../src/commands/memory/document-content';
import { MAX_DOCUMENT_CHARS } from '../../../src/commands/memory/document-content';
import { makeTempDir } from '../../support/temp-dir';
import { OPTIONS, readAll, readOne, skips, writeTree } from './reader-helpers';

describe('Markdown reader', () => {
  const temp = makeTempDir();
  afterAll(() => temp.cleanup());
  const at = (name: string) => join(temp.dir, name);

  it('takes the first level-1 heading as the title and keeps nested headings for chunking', async () => {
    writeTree(temp.dir, {
      'guide.md': [
        'Intro line before any heading.',
        '',
        '# Clinic *Guide*',
        '',
        'Welcome.',
        '',
        '## Pricing',
        '',
        '### Cleanings',
        '',
        'Adults pay $80.',
        '',
        '## Hours',
        '',
        '```',
        '# not a heading',
        '```',
      ].join('\n'),
    });
    const entry = await readOne(at('guide.md'));
    expect(entry.explicit_title).toBe(true);
    expect(entry.document).toMatchObject({
      title: 'Clinic Guide',
      format: 'markdown',
      type: 'document',
      audience: 'internal',
      authority_level: 'reference',
      document_key: `file:${temp.dir.split('/').pop()}/guide.md`,
    });
    const chunks = prepareContent(entry.document).pieces;
    expect(chunks.map((chunk) => chunk.heading)).toEqual([
      null,
      'Clinic Guide',
      'Clinic Guide > Pricing > Cleanings',
      'Clinic Guide > Hours',
    ]);
    expect(chunks[3].text).toBe('# not a heading');
  });

  it('reads front matter (title, date, url) and removes it from the content', async () => {
    writeTree(temp.dir, {
      'fm.md':
        '---\ntitle: "Front Title"\ndate: 2025-03-01\nurl: https://example.com/fm\n---\n# Other\n\nBody.\n',
    });
    const { document } = await readOne(at('fm.md'));
    expect(document.title).toBe('Front Title');
    expect(document.source_date).toBe('2025-03-01T00:00:00.000Z');
    expect(document.source_uri).toBe('https://example.com/fm');
    expect(document.content).toBe('# Other\n\nBody.\n');
  });

  it('falls back to the file name; run options override title and expiry', async () => {
    writeTree(temp.dir, { 'no-heading.markdown': 'Just text.\n\n## Sub\n\nMore.' });
    const plain = await readOne(at('no-heading.markdown'));
    expect(plain.document.title).toBe('no-heading');
    expect(plain.explicit_title).toBe(false);
    const overridden = await readOne(at('no-heading.markdown'), {
      ...OPTIONS,
      title: 'Given',
      expires_at: '2030-01-01T00:00:00.000Z',
    });
    expect(overridden.document).toMatchObject({ title: 'Given', expires_at: '2030-01-01T00:00:00.000Z' });
    expect(overridden.explicit_title).toBe(true);
  });

  it('skips empty files, files with only front matter, invalid UTF-8 and oversized documents', async () => {
    writeTree(temp.dir, {
      'bad/empty.md': '  \n\n',
      'bad/only-fm.md': '---\ntitle: T\n---\n',
      'bad/latin1.md': Buffer.from([0x23, 0x20, 0x43, 0x61, 0x66, 0xe9, 0x0a]),
      'bad/huge.md': 'a'.repeat(MAX_DOCUMENT_CHARS + 1),
      'bad/ok.md': '\ufeff# Kept\n\nText.',
    });
    const entries = await readAll(at('bad'));
    expect(skips(entries).map((s) => [s.path.split('/').pop(), s.reason])).toEqual([
      ['empty.md', 'empty'],
      ['huge.md', 'too_large'],
      ['latin1.md', 'invalid_utf8'],
      ['only-fm.md', 'empty'],
    ]);
    const kept = entries.find((entry) => entry.kind === 'document');
    expect(kept?.kind === 'document' && kept.document.title).toBe('Kept');
    expect(kept?.kind === 'document' && kept.document.content.startsWith('#')).toBe(true);
  });
});

import { join } from 'node:path';
import { prepareContent } from '../../../src/commands/memory/document-content';
import { makeTempDir } from '../../support/temp-dir';
import { readAll, readOne, skips, writeTree } from './reader-helpers';

describe('plain-text reader', () => {
  const temp = makeTempDir();
  afterAll(() => temp.cleanup());

  it('is one document titled by its file name, chunked at blank lines', async () => {
    writeTree(temp.dir, { 'notes/opening hours.txt': 'Mon-Fri 9-17.\r\n\r\nSat 10-14.\r\n' });
    const entry = await readOne(join(temp.dir, 'notes', 'opening hours.txt'));
    expect(entry.explicit_title).toBe(false);
    expect(entry.document).toMatchObject({
      title: 'opening hours',
      format: 'text',
      document_key: 'file:notes/opening hours.txt',
      source_label: 'notes/opening hours.txt',
    });
    expect(prepareContent(entry.document).pieces.map((p) => p.text)).toEqual(['Mon-Fri 9-17.\n\nSat 10-14.']);
  });

  it('skips an empty file', async () => {
    writeTree(temp.dir, { 'empty/blank.txt': '' });
    expect(skips(await readAll(join(temp.dir, 'empty'))).map((s) => s.reason)).toEqual(['empty']);
  });
});

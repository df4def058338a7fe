import { basename, join } from 'node:path';
import { makeTempDir } from '../../support/temp-dir';
import { documents, readAll, skips, writeTree } from './reader-helpers';

describe('JSON reader', () => {
  const temp = makeTempDir();
  afterAll(() => temp.cleanup());
  const root = () => basename(temp.dir);

  it('an array of objects: one document per record, keyed by id (or index), fields read leniently', async () => {
    writeTree(temp.dir, {
      'faq.json': JSON.stringify([
        {
          id: 'hours',
          title: 'Opening hours',
          content: 'Mon-Fri 9-17.',
          url: 'https://clinic.example.com/hours',
          updated_at: '2025-05-01T10:00:00Z',
          type: 'faq',
          summary: '  Weekday hours.  ',
        },
        { _id: 42, name: 'Parking', text: 'Free parking behind the building.', url: 'javascript:alert(1)' },
        {
          body: 'No id, no title.\nSecond line.',
          date: 'not a date',
          format: 'markdown',
          summary: 'x'.repeat(1001),
        },
        { id: 'empty', title: 'No text', content: '   ' },
        'a string',
      ]),
    });
    const entries = await readAll(join(temp.dir, 'faq.json'));
    const docs = documents(entries);
    expect(docs.map((d) => d.document.document_key)).toEqual([
      `file:${root()}/faq.json#hours`,
      `file:${root()}/faq.json#42`,
      `file:${root()}/faq.json#2`,
    ]);
    expect(docs[0].document).toMatchObject({
      title: 'Opening hours',
      content: 'Mon-Fri 9-17.',
      format: 'text',
      type: 'faq',
      summary: 'Weekday hours.',
      source_uri: 'https://clinic.example.com/hours',
      source_date: '2025-05-01T10:00:00.000Z',
      source_label: `${root()}/faq.json`,
    });
    expect(docs[1].document).toMatchObject({ title: 'Parking', source_uri: null, type: 'document' });
    expect(docs[2].document).toMatchObject({
      title: 'No id, no title.',
      // Over 1,000 characters: not usable as given, so ignored like any unusable optional value.
      summary: null,
      source_date: null,
      format: 'markdown',
    });
    expect(docs[2].explicit_title).toBe(false);
    expect(skips(entries).map((s) => [s.path.split('#').pop(), s.reason])).toEqual([
      ['empty', 'no_text'],
      ['4', 'not_an_object'],
    ]);
  });

  it('a single object is one record (#0 without an id); wrapped arrays are unwrapped', async () => {
    writeTree(temp.dir, {
      'one.json': JSON.stringify({ title: 'Single', content: 'Only one.' }),
      'wrapped.json': JSON.stringify({
        documents: [
          { id: 'a', content: 'A' },
          { id: 'b', content: 'B' },
        ],
      }),
    });
    const single = documents(await readAll(join(temp.dir, 'one.json')));
    expect(single.map((d) => d.document.document_key)).toEqual([`file:${root()}/one.json#0`]);
    const wrapped = documents(await readAll(join(temp.dir, 'wrapped.json')));
    expect(wrapped.map((d) => d.document.content)).toEqual(['A', 'B']);
  });

  it('skips invalid JSON, empty arrays and inherited fields', async () => {
    writeTree(temp.dir, {
      'bad/broken.json': '[{"id": 1, "content": "x"',
      'bad/none.json': '[]',
      'bad/proto.json': '[{"__proto__": {"content": "polluted"}}]',
    });
    const entries = await readAll(join(temp.dir, 'bad'));
    expect(documents(entries)).toEqual([]);
    expect(skips(entries).map((s) => s.reason)).toEqual(['invalid_json', 'empty', 'no_text']);
    expect(({} as Record<string, unknown>).content).toBeUndefined();
  });
});

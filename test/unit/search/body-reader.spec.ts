import * as codec from '../../../src/infrastructure/search/sqlite/body-codec';
import { packBody, unpackBody } from '../../../src/infrastructure/search/sqlite/body-codec';
import { BODY_PREFETCH, BodyReader } from '../../../src/infrastructure/search/sqlite/body-reader';

/** A reader over documents d0…d(n−1) (body "body of dK"), recording each statement's ids. */
function readerOver(hits: string[], existing: ReadonlySet<string>) {
  const statements: string[][] = [];
  const reader = new BodyReader(hits, (ids) => {
    statements.push(ids);
    return new Map(ids.filter((id) => existing.has(id)).map((id) => [id, `body of ${id}`]));
  });
  return { reader, statements };
}

describe('BodyReader (bodies of one search hits, read on demand)', () => {
  const hits = Array.from({ length: 40 }, (_, i) => `d${i}`);

  it('reads nothing until a body is asked for', () => {
    const { statements } = readerOver(hits, new Set(hits));
    expect(statements).toEqual([]);
  });

  it('reads the top hits in one statement when they are asked in rank order, each once', () => {
    const { reader, statements } = readerOver(hits, new Set(hits));
    for (const id of hits.slice(0, 10)) expect(reader.read(id)).toBe(`body of ${id}`);
    expect(statements).toEqual([hits.slice(0, BODY_PREFETCH)]);
    expect(reader.read('d3')).toBe('body of d3');
    expect(statements).toHaveLength(1);
  });

  it('a later hit reads from its own rank on, skipping bodies already read', () => {
    const { reader, statements } = readerOver(hits, new Set(hits));
    reader.read('d20');
    reader.read('d10');
    expect(statements[0]).toEqual(hits.slice(20, 20 + BODY_PREFETCH));
    // From d10: d10…d19, then d20… are known, so the statement stops taking them and goes on after them.
    expect(statements[1]).toEqual([...hits.slice(10, 20), ...hits.slice(36, 40)]);
  });

  it('a document gone since the search has an empty body, and is not read again', () => {
    const { reader, statements } = readerOver(hits, new Set(hits.filter((id) => id !== 'd1')));
    expect(reader.read('d1')).toBe('');
    expect(reader.read('d1')).toBe('');
    expect(statements).toHaveLength(1);
  });

  it('unpacks a packed body when it is read, not when it is fetched, and once', () => {
    const inflate = jest.spyOn(codec, 'unpackBody');
    const reader = new BodyReader(
      hits,
      (ids) => new Map(ids.map((id) => [id, packBody(`packed body of ${id}`)])),
    );
    expect(reader.read('d0')).toBe('packed body of d0');
    expect(reader.read('d0')).toBe('packed body of d0');
    expect(reader.read('d1')).toBe('packed body of d1');
    expect(inflate).toHaveBeenCalledTimes(2);
    inflate.mockRestore();
  });
});

describe('body codec', () => {
  it('round-trips any text, empty as an empty BLOB; text of older layouts reads as it is', () => {
    for (const text of ['', 'a', 'Ünïcødé — 📎 text\n\twith\u0000nul', 'word '.repeat(5000)]) {
      const packed = packBody(text);
      expect(Buffer.isBuffer(packed)).toBe(true);
      expect(unpackBody(packed)).toBe(text);
    }
    expect(packBody('')).toHaveLength(0);
    expect(unpackBody('stored as text')).toBe('stored as text');
    expect(unpackBody(null)).toBe('');
  });
});

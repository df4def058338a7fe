import fc from 'fast-check';
import { join } from 'node:path';
import { SqliteReadStore } from '../../../src/infrastructure/read-store/sqlite/sqlite-read-store';
import { openSqlite } from '../../../src/infrastructure/sqlite/sqlite-connection';
import { makeTempDir } from '../../support/temp-dir';
import { toStoredJson } from '../../../src/infrastructure/read-store/read-store-query';
import { deflateText } from '../../../src/infrastructure/read-store/sqlite/deflate-worker';
import {
  PACKED_DEFLATE_LEVEL,
  serializeDocument,
  unpackDocument,
} from '../../../src/infrastructure/read-store/sqlite/packed-fields';
import type { ReadDocument } from '../../../src/infrastructure/read-store/read-store.port';

/** Field names the documents and the packed lists draw from (including ones a document lacks). */
const NAMES = ['chunks', 'content', 'title', 'summary', 'n', 'tags'] as const;

const json = fc.jsonValue({ maxDepth: 3 });
const doc = fc
  .record(
    Object.fromEntries(NAMES.map((name) => [name, fc.oneof(json, fc.constant(null))])) as Record<
      (typeof NAMES)[number],
      fc.Arbitrary<unknown>
    >,
    { requiredKeys: [] },
  )
  .chain((fields) => fc.shuffledSubarray(Object.keys(fields)).map((order) => ({ fields, order })))
  .map(({ fields, order }) => {
    const out: Record<string, unknown> = { id: 'd1' };
    for (const key of order) out[key] = (fields as Record<string, unknown>)[key];
    return out as ReadDocument;
  });

/** A document's row as a commit writes it: serialized, its packed fields compressed as the read store does. */
function packDocument(doc: ReadDocument, fields: readonly string[]): { json: string; packed: Buffer | null } {
  const { json, packedJson } = serializeDocument(doc, fields, toStoredJson);
  return { json, packed: packedJson === null ? null : deflateText(packedJson, PACKED_DEFLATE_LEVEL) };
}

describe('packed fields of the embedded read store', () => {
  it('reads back every document as it was written, key order included, whatever fields are packed', () => {
    fc.assert(
      fc.property(doc, fc.subarray([...NAMES]), (written, packed) => {
        const stored = packDocument(written, packed);
        const read = unpackDocument<ReadDocument>(stored.json, stored.packed);
        expect(JSON.stringify(read)).toBe(toStoredJson(written));
        // The row's JSON holds no packed value (null in its place), and packs only what was there.
        const row = JSON.parse(stored.json) as Record<string, unknown>;
        for (const field of packed) if (field in row) expect(row[field]).toBeNull();
        const anyPacked = packed.some((field) => written[field] !== undefined && written[field] !== null);
        expect(stored.packed !== null).toBe(anyPacked);
      }),
      { numRuns: 1000 },
    );
  });

  it('packs own fields only, leaves what JSON leaves out to the row, and never lays a stale packed value over the row', () => {
    // Names an object inherits are not the document's fields.
    const plain = packDocument({ id: '1', title: 't' }, ['constructor', 'toString']);
    expect(plain.packed).toBeNull();
    expect(unpackDocument(plain.json, plain.packed)).toEqual({ id: '1', title: 't' });
    // A value JSON drops is dropped, as unpacked: not stored as null.
    const dropped = packDocument(
      { id: '1', chunks: (() => 1) as unknown, later: { toJSON: () => undefined }, n: 1 },
      ['chunks', 'later'],
    );
    expect(dropped.packed).toBeNull();
    expect(JSON.stringify(unpackDocument(dropped.json, dropped.packed))).toBe('{"id":"1","n":1}');
    // A row an older build rewrote (its JSON holds the field again, or lacks it) beside an older packed column.
    const stale = packDocument({ id: '1', chunks: ['old text'] }, ['chunks']).packed;
    expect(unpackDocument('{"id":"1","chunks":["new text"]}', stale)).toEqual({
      id: '1',
      chunks: ['new text'],
    });
    expect(unpackDocument('{"id":"1","title":"no chunks"}', stale)).toEqual({ id: '1', title: 'no chunks' });
  });
});

describe('one field of stored documents, read without the rest (SqliteReadStore.getFieldNow)', () => {
  it('is the field get() returns, packed or not, null when the document lacks it; a missing document is left out', async () => {
    const temp = makeTempDir('cairn-field-now-');
    const db = openSqlite({ path: join(temp.dir, 'cairn.sqlite') });
    const store = new SqliteReadStore(db);
    let position = 0;
    try {
      await fc.assert(
        fc.asyncProperty(
          doc,
          fc.subarray([...NAMES]),
          fc.constantFrom(...NAMES),
          async (written, packed, field) => {
            const collection = `c${position}`;
            await store.ensureCollection(collection, [], { packed });
            await store.commit('p', position, { position: position + 1, version: 1 }, [
              { op: 'put', collection, doc: written },
            ]);
            position += 1;
            const read = await store.get<ReadDocument>(collection, written.id);
            const found = store.getFieldNow(collection, [written.id, 'missing'], field);
            expect([...found.keys()]).toEqual([written.id]);
            expect(found.get(written.id)).toEqual(read?.[field] ?? null);
          },
        ),
        { numRuns: 200 },
      );
    } finally {
      db.close();
      temp.cleanup();
    }
  });
});

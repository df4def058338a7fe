import { join } from 'node:path';
import { decodeFields } from '../../src/infrastructure/search/sqlite/field-codec';
import { SqliteSearchIndex } from '../../src/infrastructure/search/sqlite/sqlite-search-index';
import { openSqlite } from '../../src/infrastructure/sqlite/sqlite-connection';
import { makeTempDir } from '../support/temp-dir';

describe('SQLite search index: fields stored encoded (field-codec.ts), collapsed by their own column', () => {
  const temp = makeTempDir('cairn-search-fields-');
  afterAll(() => temp.cleanup());

  it('stores them compactly, and re-encodes the JSONB fields of layout 8 when opened (filters, collapse, get as before)', async () => {
    const db = openSqlite({ path: join(temp.dir, 'layout8.sqlite') });
    const index = new SqliteSearchIndex(db);
    // Two items of three chunks each, as the memory projection indexes them, and one free-form document.
    const chunk = (item: number, ordinal: number, audience: string, body: string) => ({
      id: `chunk-${item * 10 + ordinal}`,
      organization_id: 'org',
      title: `Runbook ${item}`,
      body,
      fields: {
        memory_item_id: item,
        memory_source_id: item,
        memory_chunk_id: item * 10 + ordinal,
        ordinal,
        revision: 1,
        type: 'document',
        audience,
        authority_level: 'reference',
        visibility: 'organization_internal',
        owner_client_key: null,
        expires_at_ms: null,
      },
      version: 1,
    });
    await index.upsert([
      chunk(1, 0, 'internal', 'Drain the queue before the failover.'),
      chunk(1, 1, 'internal', 'Restart the queue workers one host at a time.'),
      chunk(1, 2, 'internal', 'Check the queue depth after the failover.'),
      chunk(2, 0, 'customer_safe', 'The queue status page shows delays.'),
      chunk(2, 1, 'customer_safe', 'Delays clear within the hour.'),
      chunk(2, 2, 'customer_safe', 'Contact support if the queue stalls.'),
      {
        id: 'note',
        organization_id: 'org',
        title: 'Note',
        body: 'queue',
        // A field named __proto__ (the key rules allow it) stays a field.
        fields: JSON.parse('{"__proto__":"x","flag":true,"weight":0.5}') as Record<
          string,
          boolean | number | string
        >,
        version: 1,
      },
    ]);
    await index.delete([{ id: 'chunk-12', version: 2 }]);
    const stored = () =>
      db
        .prepare(
          `SELECT id, typeof(fields) AS type, length(fields) AS bytes, collapse_key FROM search_index_documents ORDER BY id`,
        )
        .all() as Array<{ id: string; type: string; bytes: number; collapse_key: number | null }>;
    for (const row of stored()) {
      expect(row.type).toBe('text');
      expect(row.bytes).toBeLessThanOrEqual(50);
    }
    expect(Object.fromEntries(stored().map((row) => [row.id, row.collapse_key]))).toEqual({
      'chunk-10': 1,
      'chunk-11': 1,
      'chunk-12': null, // a tombstone
      'chunk-20': 2,
      'chunk-21': 2,
      'chunk-22': 2,
      note: null,
    });
    const answers = async (reading: SqliteSearchIndex) => ({
      filtered: (
        await reading.search({
          organization_id: 'org',
          text: 'queue',
          filters: { audience: 'customer_safe' },
        })
      ).map((hit) => [hit.id, hit.fields]),
      collapsed: (
        await reading.search({
          organization_id: 'org',
          text: 'queue',
          collapse: { field: 'memory_item_id', max_members: 5 },
        })
      ).map((hit) => [hit.id, hit.members?.map((member) => member.id).sort()]),
      note: await reading.get('note'),
    });
    const before = await answers(index);
    expect(before.filtered.map(([id]) => id).sort()).toEqual(['chunk-20', 'chunk-22']);
    expect(before.collapsed.map(([, members]) => members)).toEqual(
      expect.arrayContaining([
        ['chunk-10', 'chunk-11'],
        ['chunk-20', 'chunk-22'],
      ]),
    );
    expect(Object.getOwnPropertyDescriptor(before.note?.fields, '__proto__')?.value).toBe('x');
    await index.close();

    // As layout 8 left it: fields as JSONB, no collapse_key (the collapse index was on an expression).
    const decode = db.function('test_decode_fields', (text: unknown) =>
      JSON.stringify(decodeFields(String(text))),
    );
    void decode;
    db.exec(`UPDATE search_index_documents SET fields = jsonb(test_decode_fields(fields)), collapse_key = NULL;
      DROP INDEX search_index_documents_collapse;
      UPDATE search_index_meta SET value = '8.1' WHERE key = 'version'`);
    expect(new Set(stored().map((row) => row.type))).toEqual(new Set(['blob']));
    const reopened = new SqliteSearchIndex(db);
    expect(new Set(stored().map((row) => row.type))).toEqual(new Set(['text']));
    expect(await answers(reopened)).toEqual(before);
    // Changing a chunk's item moves it to the other item's members.
    await reopened.upsert([{ ...chunk(2, 1, 'customer_safe', 'Delays clear within the hour.'), version: 3 }]);
    await reopened.upsert([
      {
        ...chunk(1, 1, 'internal', 'Restart the queue workers one host at a time.'),
        fields: { ...chunk(2, 1, 'x', '').fields, audience: 'internal' },
        version: 3,
      },
    ]);
    const moved = await reopened.search({
      organization_id: 'org',
      text: 'queue',
      collapse: { field: 'memory_item_id', max_members: 5 },
    });
    expect(moved.map((hit) => hit.members?.map((member) => member.id).sort())).toEqual(
      expect.arrayContaining([['chunk-10'], ['chunk-11', 'chunk-20', 'chunk-22']]),
    );
    await reopened.close();
    db.close();
  });
});

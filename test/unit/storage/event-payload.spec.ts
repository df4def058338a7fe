import fc from 'fast-check';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { verifyChain } from '../../../src/infrastructure/event-store/hash-chain';
import {
  COMPRESS_FROM_BYTES,
  COMPRESS_OTHERS_FROM_BYTES,
  compressFrom,
  decodePayload,
  encodePayload,
  MAX_STORED_NESTING,
  nestsDeeperThan,
} from '../../../src/infrastructure/event-store/sqlite/event-payload';
import { PAYLOAD_DICTIONARY_V1 } from '../../../src/infrastructure/event-store/sqlite/payload-dictionary';
import { SqliteEventStore } from '../../../src/infrastructure/event-store/sqlite/sqlite-event-store';
import { openSqlite } from '../../../src/infrastructure/sqlite/sqlite-connection';
import { makeTempDir } from '../../support/temp-dir';

const metadata = {
  organization_id: '1',
  correlation_id: 'c',
  causation_id: null,
  actor: 'operator:test',
  occurred_at: '2026-01-01T00:00:00.000Z',
  schema_version: 1,
};

/** A revision's data as memory events carry it: the text twice (content and chunks), with non-ASCII text. */
function largeData(): Record<string, unknown> {
  const text = 'Öffnungszeiten: we open at nine and close at five, 週末 closed. '.repeat(40);
  return { content: text, chunks: [{ ordinal: 0, text }] };
}

describe('event payloads (embedded event store)', () => {
  it('keeps small data as JSON text and stores large data compressed, reading both back exactly', () => {
    const small = JSON.stringify({ name: 'Desk' });
    expect(encodePayload(small)).toBe(small);
    const large = JSON.stringify(largeData());
    expect(large.length).toBeGreaterThanOrEqual(COMPRESS_FROM_BYTES);
    const stored = encodePayload(large);
    expect(Buffer.isBuffer(stored)).toBe(true);
    expect((stored as Buffer).length).toBeLessThan(Buffer.byteLength(large) / 4);
    expect(decodePayload(stored)).toBe(large);
  });

  it('stores small events compressed with the fixed dictionary, and reads format 1 (no dictionary) as before', () => {
    // Pinned: rows of format 2 are read with exactly these bytes (payload-dictionary.ts: never edit).
    expect(createHash('sha256').update(PAYLOAD_DICTIONARY_V1).digest('hex')).toBe(
      '9518e542b604334654666a8eccb4fdb7d39ddde043d0b1b5705d211c44dedd96',
    );
    const claimed = JSON.stringify({
      organization_id: 1,
      document_key: 'file:beir-scifact/corpus.jsonl#5836',
      memory_item_id: 2,
      memory_source_id: 2,
    });
    const stored = encodePayload(claimed, compressFrom('MemoryDocumentClaimed')) as Buffer;
    expect(stored[0]).toBe(2);
    expect(stored.length).toBeLessThanOrEqual(60);
    expect(Buffer.byteLength(claimed)).toBeGreaterThan(110);
    expect(decodePayload(stored)).toBe(claimed);
    // Without the dictionary the same bytes do not inflate to the same JSON.
    expect(() => inflateRawSync(stored.subarray(1)).toString('utf8')).toThrow();
    // Format 1, as the previous build stored it: plain raw DEFLATE.
    const large = JSON.stringify(largeData());
    const format1 = Buffer.concat([Buffer.from([1]), deflateRawSync(Buffer.from(large, 'utf8'))]);
    expect(decodePayload(format1)).toBe(large);
    expect(() => decodePayload(Buffer.concat([format1, Buffer.from('X')]))).toThrow(/1 bytes after its end/);
  });

  it('refuses a stored payload that inflates past the largest append (a decompression bomb), without inflating it all', () => {
    // 80 MiB of one byte deflate to ~80 KB; no append may exceed 64 MiB (CAIRN_MAX_APPEND_BYTES' ceiling).
    const bomb = deflateRawSync(Buffer.alloc(80 * 1024 * 1024, 0x20), { dictionary: PAYLOAD_DICTIONARY_V1 });
    expect(bomb.length).toBeLessThan(100_000);
    const before = process.memoryUsage().arrayBuffers;
    expect(() => decodePayload(Buffer.concat([Buffer.from([2]), bomb]))).toThrow(
      /larger than|maxOutputLength|buffer/i,
    );
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(70 * 1024 * 1024);
    // Up to the ceiling it reads (a legitimately large event).
    const large = `"${'y'.repeat(2 * 1024 * 1024)}"`;
    expect(decodePayload(encodePayload(large, 0))).toBe(large);
  });

  it('measures nesting as a character-by-character scan would, strings with quotes and brackets skipped', () => {
    const naive = (json: string, limit: number): boolean => {
      let depth = 0;
      let inString = false;
      for (let i = 0; i < json.length; i++) {
        const c = json[i];
        if (inString) {
          if (c === '\\') i++;
          else if (c === '"') inString = false;
        } else if (c === '"') inString = true;
        else if (c === '{' || c === '[') {
          if (++depth > limit) return true;
        } else if (c === '}' || c === ']') depth--;
      }
      return false;
    };
    const tricky = fc.constantFrom('"a\\"[{"', '"\\\\"', '"x[[[{"', '"}]"', 'null', '1');
    const nested = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        tricky,
        fc.array(tie('node'), { maxLength: 3 }).map((items) => `[${items.join(',')}]`),
        fc
          .array(
            fc.tuple(
              tricky.filter((t) => t.startsWith('"')),
              tie('node'),
            ),
            { maxLength: 3 },
          )
          .map((members) => `{${members.map(([k, v]) => `${k}:${v}`).join(',')}}`),
      ),
    })).node;
    fc.assert(
      fc.property(
        fc.oneof(nested, fc.json({ depthSize: 'medium' })),
        fc.integer({ min: 0, max: 8 }),
        (json, limit) => {
          JSON.parse(json);
          expect(nestsDeeperThan(json, limit)).toBe(naive(json, limit));
        },
      ),
      { numRuns: 3_000 },
    );
    expect(nestsDeeperThan(`{"x":${'['.repeat(300)}${']'.repeat(300)}}`, MAX_STORED_NESTING)).toBe(true);
    expect(nestsDeeperThan(`{"x":"${'['.repeat(300)}"}`, MAX_STORED_NESTING)).toBe(false);
  });

  it('refuses a payload format it does not know, and bytes hidden after the compressed data, saying so', () => {
    expect(() => decodePayload(Buffer.from([9, 1, 2]))).toThrow(/format 9.*newer Cairn/);
    const stored = encodePayload(JSON.stringify(largeData())) as Buffer;
    expect(() => decodePayload(Buffer.concat([stored, Buffer.from('HIDDEN')]))).toThrow(
      /6 bytes after its end/,
    );
  });

  it('reads events stored either way (compressed, or as JSON text by earlier builds) and their chain verifies', async () => {
    const temp = makeTempDir('cairn-payload-');
    const db = openSqlite({ path: join(temp.dir, 'cairn.sqlite') });
    const store = new SqliteEventStore(db);
    try {
      await store.append('memory-item-1', [{ type: 'Big', data: largeData(), metadata }], 'no_stream');
      await store.append('memory-item-1', [{ type: 'Big', data: largeData(), metadata }], 0);
      const types = db.prepare('SELECT typeof(data) FROM events ORDER BY position').pluck().all();
      expect(types).toEqual(['blob', 'blob']);
      // The first event as a build before compression stored it.
      db.prepare('UPDATE events SET data = ? WHERE position = 1').run(JSON.stringify(largeData()));
      const events = await store.readStream('memory-item-1');
      expect(events.map((event) => event.data)).toEqual([largeData(), largeData()]);
      expect(verifyChain(events)).toBeNull();
      expect((await store.readAll()).map((event) => ({ ...event }).data)).toEqual([largeData(), largeData()]);
    } finally {
      await store.close();
      db.close();
      temp.cleanup();
    }
  });

  it('compresses a recall trace from 2 KiB on and any other event from 48 characters on, as stored', async () => {
    expect(compressFrom('RecallTraceRecorded')).toBe(COMPRESS_FROM_BYTES);
    expect(compressFrom('MemoryItemCreated')).toBe(COMPRESS_OTHERS_FROM_BYTES);
    const temp = makeTempDir('cairn-payload-');
    const db = openSqlite({ path: join(temp.dir, 'cairn.sqlite') });
    const store = new SqliteEventStore(db);
    // A search's trace of ~1.5 KB, and an item of the same size: one stays text, the other is compressed.
    const results = Array.from({ length: 12 }, (_, n) => ({
      memory_item_id: n,
      memory_chunk_ids: [n],
      score: n / 7,
    }));
    const item = {
      title: 'Opening hours',
      content: 'We open at nine and close at five on weekdays. '.repeat(30),
    };
    const small = { title: 'Desk', content: 'x'.repeat(COMPRESS_OTHERS_FROM_BYTES - 40) };
    try {
      await store.append(
        'trace-1',
        [{ type: 'RecallTraceRecorded', data: { results }, metadata }],
        'no_stream',
      );
      await store.append('item-1', [{ type: 'MemoryItemCreated', data: item, metadata }], 'no_stream');
      await store.append('item-2', [{ type: 'MemoryItemCreated', data: small, metadata }], 'no_stream');
      const stored = db
        .prepare('SELECT typeof(data), length(data) FROM events ORDER BY position')
        .raw(true)
        .all() as Array<[string, number]>;
      expect(JSON.stringify({ results }).length).toBeGreaterThan(COMPRESS_OTHERS_FROM_BYTES);
      expect(JSON.stringify({ results }).length).toBeLessThan(COMPRESS_FROM_BYTES);
      expect(JSON.stringify(small).length).toBeLessThan(COMPRESS_OTHERS_FROM_BYTES);
      expect(stored.map(([type]) => type)).toEqual(['text', 'blob', 'text']);
      expect(stored[1][1]).toBeLessThan(JSON.stringify(item).length / 4);
      const events = await store.readAll();
      expect(events.map((event) => event.data)).toEqual([{ results }, item, small]);
    } finally {
      await store.close();
      db.close();
      temp.cleanup();
    }
  });
});

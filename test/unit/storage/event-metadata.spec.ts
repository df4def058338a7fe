import fc from 'fast-check';
import { join } from 'node:path';
import { CALLER_METADATA_KEYS, verifyChain } from '../../../src/infrastructure/event-store/hash-chain';
import {
  decodeMetadata,
  encodeMetadata,
} from '../../../src/infrastructure/event-store/sqlite/event-metadata';
import { SqliteEventStore } from '../../../src/infrastructure/event-store/sqlite/sqlite-event-store';
import { openSqlite } from '../../../src/infrastructure/sqlite/sqlite-connection';
import { makeTempDir } from '../../support/temp-dir';

/** Metadata as an append records it: the caller's fields, then the stream chain's two links. */
function recorded(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    organization_id: '17',
    correlation_id: '3c46b658-0029-480c-8f62-0107a9daa2d2',
    causation_id: null,
    actor: 'operator:cli',
    occurred_at: '2026-11-27T19:21:13.640Z',
    schema_version: 1,
    prev_hash: '0'.repeat(64),
    hash: '9d95f985b357b16d9cf9d7a0aec3403994d5256361610644186a101146159259',
    ...overrides,
  };
}

/** Metadata as a caller appends it (the store adds the chain links). */
const callerMetadata = {
  organization_id: '1',
  correlation_id: '3c46b658-0029-480c-8f62-0107a9daa2d2',
  causation_id: null,
  actor: 'operator:test',
  occurred_at: '2026-01-01T00:00:00.000Z',
  schema_version: 1,
};

function stored(metadata: Record<string, unknown>): string | Buffer {
  return encodeMetadata(metadata);
}

const hex64 = fc.stringMatching(/^[0-9a-f]{64}$/);
/** Any value a metadata field could hold, the shapes the packed form has tags for and the ones it has not. */
const fieldValue = fc.oneof(
  fc.constant(null),
  fc.string(),
  fc.string({ unit: 'binary' }),
  fc.uuid(),
  fc.uuid().map((uuid) => uuid.toUpperCase()),
  fc.nat({ max: Number.MAX_SAFE_INTEGER }).map(String),
  fc.constantFrom('0', '007', '-1', '1e3', '9007199254740993', ' 1'),
  fc.nat({ max: Number.MAX_SAFE_INTEGER }),
  fc.constantFrom(-1, 1.5, -0, 2 ** 60),
  fc
    .date({ min: new Date(-1e13), max: new Date(4e12), noInvalidDate: true })
    .map((date) => date.toISOString()),
  fc.constantFrom('2026-11-27T19:21:13.64Z', '2026-11-27T19:21:13.640+00:00', '+275760-09-13T00:00:00.000Z'),
  fc.boolean(),
  fc.constant({ nested: true }),
);

describe('event metadata (embedded event store)', () => {
  it('packs an append’s metadata into about a third of its JSON and reads back the same JSON text', () => {
    const metadata = recorded();
    const json = JSON.stringify(metadata);
    const packed = stored(metadata);
    expect(Buffer.isBuffer(packed)).toBe(true);
    expect((packed as Buffer).length).toBeLessThan(json.length / 2.5);
    expect(JSON.stringify(decodeMetadata(packed))).toBe(json);
    expect(JSON.stringify(decodeMetadata(json))).toBe(json);
  });

  it('reads back exactly what it was given, for any field values; what it cannot pack stays JSON', () => {
    const keys = CALLER_METADATA_KEYS;
    fc.assert(
      fc.property(fc.tuple(...keys.map(() => fieldValue)), hex64, hex64, (values, prev, hash) => {
        const metadata: Record<string, unknown> = {};
        keys.forEach((key, n) => (metadata[key] = values[n]));
        Object.assign(metadata, { prev_hash: prev, hash });
        const json = JSON.stringify(metadata);
        const value = encodeMetadata(metadata);
        expect(JSON.stringify(decodeMetadata(value))).toBe(json);
        // Only objects and booleans have no tag: everything else of these shapes is packed.
        const packable = values.every((v) => (typeof v !== 'boolean' && typeof v !== 'object') || v === null);
        const integral = values.every(
          (v) => typeof v !== 'number' || (Number.isSafeInteger(v) && v >= 0 && !Object.is(v, -0)),
        );
        expect(Buffer.isBuffer(value)).toBe(packable && integral);
      }),
      { numRuns: 500 },
    );
  });

  it.each([
    ['an unknown key', recorded({ extra: 1 })],
    ['a missing key', (({ causation_id: _dropped, ...rest }) => rest)(recorded())],
    ['the keys in another order', (({ actor, ...rest }) => ({ actor, ...rest }))(recorded())],
    ['an uppercase hash', recorded({ hash: 'A'.repeat(64) })],
    ['a short hash', recorded({ prev_hash: '0'.repeat(63) })],
    [
      'the log link in the JSON (rows before the link had columns)',
      recorded({ global_hash: 'e'.repeat(64) }),
    ],
    // UTF-8 cannot hold a lone surrogate: packed, it would read back as U+FFFD.
    ['a lone surrogate in the actor', recorded({ actor: 'operator:\ud800x' })],
  ])('keeps metadata with %s as JSON text', (_kind, metadata) => {
    const json = JSON.stringify(metadata);
    expect(encodeMetadata(metadata)).toBe(json);
  });

  it('refuses a format or a value it does not know, and a truncated or padded value, saying so', () => {
    const packed = stored(recorded()) as Buffer;
    expect(() => decodeMetadata(Buffer.from([9, ...packed.subarray(1)]))).toThrow(/format 9.*newer Cairn/);
    expect(() => decodeMetadata(packed.subarray(0, packed.length - 1))).toThrow(/truncated/);
    expect(() => decodeMetadata(Buffer.concat([packed, Buffer.from([0])]))).toThrow(/trailing/);
    const badTag = Buffer.from(packed);
    badTag[65] = 99;
    expect(() => decodeMetadata(badTag)).toThrow(/unknown value tag 99/);
  });

  it('appends after the hashes audit:verify reads, even from a row an attacker rewrote as JSON with duplicate keys', async () => {
    const temp = makeTempDir('cairn-metadata-');
    const db = openSqlite({ path: join(temp.dir, 'cairn.sqlite') });
    const store = new SqliteEventStore(db);
    try {
      await store.append('s', [{ type: 'A', data: { n: 1 }, metadata: callerMetadata }], 'no_stream');
      const [first] = await store.readStream('s');
      const { global_prev_hash, global_hash, ...chained } = first.metadata;
      const forged = (hex: string) => (hex[0] === 'a' ? 'b' : 'a') + hex.slice(1);
      // A pre-log-chain row (links in the JSON) whose duplicate keys carry forged values first: SQL's JSON
      // functions read the first of duplicates, JSON.parse (every reader, the audit) the last.
      const json = JSON.stringify({ ...chained, global_prev_hash, global_hash }).replace(
        '{',
        `{"hash":"${forged(first.metadata.hash)}","global_hash":"${forged(global_hash!)}",`,
      );
      db.prepare(
        'UPDATE events SET metadata = ?, global_prev_hash = NULL, global_hash = NULL WHERE position = 1',
      ).run(json);
      await store.append('s', [{ type: 'B', data: { n: 2 }, metadata: callerMetadata }], 0);
      const events = await store.readStream('s');
      expect(events[1].metadata.prev_hash).toBe(first.metadata.hash);
      expect(events[1].metadata.global_prev_hash).toBe(global_hash);
      expect(verifyChain(events)).toBeNull();
    } finally {
      await store.close();
      db.close();
      temp.cleanup();
    }
  });

  it('appends after a packed last row whose log link was cleared (the audit reports that row, appends go on)', async () => {
    const temp = makeTempDir('cairn-metadata-');
    const db = openSqlite({ path: join(temp.dir, 'cairn.sqlite') });
    const store = new SqliteEventStore(db);
    try {
      await store.append('s', [{ type: 'A', data: { n: 1 }, metadata: callerMetadata }], 'no_stream');
      // Cleared by another connection (another process): the store reads the log's head again after it.
      const editor = openSqlite({ path: join(temp.dir, 'cairn.sqlite') });
      editor
        .prepare('UPDATE events SET global_prev_hash = NULL, global_hash = NULL WHERE position = 1')
        .run();
      editor.close();
      await store.append('t', [{ type: 'B', data: { n: 2 }, metadata: callerMetadata }], 'no_stream');
      const events = await store.readAll();
      expect(events.map((event) => event.type)).toEqual(['A', 'B']);
      expect(events[1].metadata.global_prev_hash).toBe('0'.repeat(64));
    } finally {
      await store.close();
      db.close();
      temp.cleanup();
    }
  });

  it('stores appends packed, reads rows of either form, continues a stream after a JSON row, and the chain verifies', async () => {
    const temp = makeTempDir('cairn-metadata-');
    const db = openSqlite({ path: join(temp.dir, 'cairn.sqlite') });
    const store = new SqliteEventStore(db);
    const metadata = { ...callerMetadata, causation_id: 'not a uuid' };
    try {
      await store.append('s', [{ type: 'A', data: { n: 1 }, metadata }], 'no_stream');
      const column = db.prepare('SELECT metadata FROM events WHERE position = ?').pluck();
      const first = column.get(1) as Buffer;
      expect(Buffer.isBuffer(first)).toBe(true);
      // The first row as a build before packing stored it.
      const [written] = await store.readStream('s');
      const { global_prev_hash: _p, global_hash: _h, ...asJson } = written.metadata;
      db.prepare('UPDATE events SET metadata = ? WHERE position = 1').run(JSON.stringify(asJson));
      await store.append('s', [{ type: 'B', data: { n: 2 }, metadata }], 0);
      expect(Buffer.isBuffer(column.get(2))).toBe(true);
      const events = await store.readStream('s');
      expect(events.map((event) => event.metadata)).toEqual([
        written.metadata,
        expect.objectContaining({ ...metadata, prev_hash: written.metadata.hash }),
      ]);
      expect(verifyChain(events)).toBeNull();
    } finally {
      await store.close();
      db.close();
      temp.cleanup();
    }
  });
});

import { randomBytes } from 'node:crypto';
import { cpSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodePayload, encodePayload } from '../../src/infrastructure/event-store/sqlite/event-payload';
import { openSqlite, type SqliteDatabase } from '../../src/infrastructure/sqlite/sqlite-connection';
import { cairn } from '../support/cli';
import {
  dropUniqueRevisions,
  editData,
  editMetadata,
  forgeChatbotEvent,
  linksInMetadata,
  rechain,
} from '../support/sqlite-tampering';
import { makeTempDir } from '../support/temp-dir';

/**
 * Invariant 8: audit:verify detects every tampering an attacker with write access to the SQLite file (server
 * stopped) can do, each exiting 1 and naming what broke: without an anchor wherever the log can see it, against an
 * anchor kept elsewhere otherwise (a truncated or wholly rewritten log); an untouched store verifies. One test per
 * kind of docs/audit.md's table.
 */
describe('audit:verify against tampering (invariant 8)', () => {
  jest.setTimeout(60_000);
  const base = makeTempDir('cairn-audit-');
  const documents = makeTempDir('cairn-audit-documents-');
  const copies: Array<{ dir: string; cleanup: () => void }> = [];
  let anchor: { position: number; global_hash: string };
  /** audit:anchor's whole output (every stream's head too), in a file as an auditor keeps it. */
  let anchorFile: string;
  let org: string;
  let item: string;

  beforeAll(async () => {
    const run = (...args: string[]) => cairn(base.dir, ...args);
    const first = await run('org:create', '--name', 'Alpha Dental');
    expect(first.code).toBe(0);
    org = String(first.json.organization_id);
    expect((await run('connector:create', org, '--name', 'C', '--capabilities', 'memory_search')).code).toBe(
      0,
    );
    expect((await run('chatbot:create', org, '--name', 'Desk')).code).toBe(0);
    // A document large enough for its event's data to be stored compressed (event-payload.ts).
    const document = join(documents.dir, 'hours.md');
    writeFileSync(document, `# Hours\n\n${'We open at nine and close at five on weekdays. '.repeat(60)}`);
    const ingested = await run('memory:ingest', org, document);
    expect(ingested.code).toBe(0);
    item = String(ingested.json.items?.[0]?.memory_item_id ?? 1);
    // Streams of several events, interleaved with others in the log.
    expect((await run('chatbot:pause', org, '1')).code).toBe(0);
    writeFileSync(document, `# Hours\n\n${'We open at eight and close at six on weekdays. '.repeat(60)}`);
    expect((await run('memory:revise', org, item, document)).code).toBe(0);
    expect((await run('chatbot:resume', org, '1')).code).toBe(0);
    expect((await run('org:create', '--name', 'Beta Dental')).code).toBe(0);
    const anchored = await run('audit:anchor');
    expect(anchored.code).toBe(0);
    anchor = { position: anchored.json.position, global_hash: anchored.json.global_hash };
    anchorFile = join(documents.dir, 'anchor.json');
    writeFileSync(anchorFile, anchored.stdout);
    expect((await run('org:create', '--name', 'Gamma Dental')).code).toBe(0);
    expect((await run('chatbot:pause', org, '1')).code).toBe(0);
  });
  afterAll(() => {
    for (const copy of copies) copy.cleanup();
    base.cleanup();
    documents.cleanup();
  });

  type Tamper = (sql: (statement: string) => void, db: SqliteDatabase) => void;

  /** A copy of the store with `tamper` run on its SQLite file (as an attacker would, nothing running). */
  function tampered(tamper: Tamper): string {
    const copy = makeTempDir('cairn-audit-copy-');
    copies.push(copy);
    cpSync(base.dir, copy.dir, { recursive: true });
    const db = openSqlite({ path: join(copy.dir, 'cairn.sqlite') });
    tamper((statement) => db.prepare(statement).run(), db);
    db.close();
    return copy.dir;
  }

  /** A copy of the store with `tamper` run on its SQLite file; returns audit:verify's result on it. */
  async function verifyAfter(tamper: Tamper, ...args: string[]) {
    return cairn(tampered(tamper), 'audit:verify', ...args);
  }

  function one<T>(db: SqliteDatabase, query: string): T {
    return db.prepare(query).get() as T;
  }

  it('an untouched store verifies, its log chain head and an anchor included', async () => {
    const ok = await verifyAfter(() => {}, '--anchor', JSON.stringify(anchor));
    expect(ok.code).toBe(0);
    expect(ok.json).toMatchObject({
      verified: true,
      log_head: { position: expect.any(Number), global_hash: expect.stringMatching(/^[0-9a-f]{64}$/) },
      anchor: { ...anchor, holds: true, reason: null },
    });
    expect(ok.json.log_head.position).toBeGreaterThan(anchor.position);
  });

  it('an edited event: hash_chain_broken', async () => {
    const res = await verifyAfter((_sql, db) =>
      editData(db, 'stream = ?', ['chatbot-1'], { name: 'Mallory' }),
    );
    expect(res.code).toBe(1);
    expect(res.json.error).toMatchObject({
      code: 'hash_chain_broken',
      details: [{ stream: 'chatbot-1', revision: 0, reason: 'hash_mismatch' }],
    });
  });

  it('an edited memory item event (its sealed text, compressed or not): hash_chain_broken', async () => {
    const res = await verifyAfter((_sql, db) => {
      const row = db
        .prepare<[], { position: number; data: Buffer | string }>(
          "SELECT position, data FROM events WHERE type = 'MemoryItemCreated'",
        )
        .get();
      // The item's text is sealed (ciphertext, docs/audit.md "Erasure"): one character of it is edited.
      const text = decodePayload(row!.data);
      const at = text.indexOf('sealed:1:') + 40;
      const edited = text.slice(0, at) + (text[at] === 'A' ? 'B' : 'A') + text.slice(at + 1);
      expect(edited).not.toBe(text);
      db.prepare('UPDATE events SET data = ? WHERE position = ?').run(encodePayload(edited), row!.position);
    });
    expect(res.code).toBe(1);
    expect(res.json.error).toMatchObject({
      code: 'hash_chain_broken',
      details: [{ stream: 'memory-item-1', revision: 0, reason: 'hash_mismatch' }],
    });
  });

  it.each([
    ['data with an unknown format byte', 'data', () => Buffer.from([9, 1, 2, 3])],
    ['data: a compressed payload cut short', 'data', (stored: Buffer | string) => cut(stored)],
    ['data: JSON text that does not parse', 'data', () => '{"name": "Mallory"'],
    ['data: JSON nested 10,000 deep', 'data', () => `{"x":${'['.repeat(10_000)}${']'.repeat(10_000)}}`],
    ['data: JSON that is not an object', 'data', () => 'null'],
    ['data: a compressed list', 'data', () => encodePayload('[1]', 0)],
    ['metadata: packed, cut short', 'metadata', (stored: Buffer | string) => cut(stored)],
    [
      'metadata: JSON nested 20,000 deep',
      'metadata',
      () => `{"actor":${'['.repeat(20_000)}${']'.repeat(20_000)}}`,
    ],
    ['metadata: JSON text that does not parse', 'metadata', () => '{"actor": '],
    ['metadata: JSON null', 'metadata', () => 'null'],
    ['metadata: a JSON string', 'metadata', () => '"x"'],
    ['metadata: a JSON list', 'metadata', () => '[]'],
  ] as const)(
    'a row no reader can decode (%s): hash_chain_broken (unreadable) naming it; reading it names it too',
    async (_kind, column, damage) => {
      let position = 0;
      const dir = tampered((_sql, db) => {
        // The memory item's created event: compressed data, packed metadata, events before and after it.
        const row = db
          .prepare<[], { position: number; stored: Buffer | string }>(
            `SELECT position, ${column} AS stored FROM events WHERE type = 'MemoryItemCreated'`,
          )
          .get()!;
        position = row.position;
        db.prepare(`UPDATE events SET ${column} = ? WHERE position = ?`).run(damage(row.stored), position);
      });
      const res = await cairn(dir, 'audit:verify');
      expect(res.code).toBe(1);
      expect(res.json.error).toMatchObject({
        code: 'hash_chain_broken',
        details: [
          {
            stream: 'memory-item-1',
            revision: 0,
            position,
            reason: 'unreadable',
            unreadable: { part: column, cause: expect.any(String) },
          },
        ],
      });
      // Said in the store's words, not a JavaScript engine's (a TypeError from reading a property of null).
      expect(res.json.error.details[0].unreadable.cause).not.toMatch(
        /Cannot (read|set) properties|is not (a function|iterable)/,
      );
      const read = await cairn(dir, 'audit:stream', 'memory-item-1');
      expect(read.code).toBe(1);
      expect(read.json.error).toMatchObject({
        code: 'stored_event_unreadable',
        details: [{ part: column, position }],
      });
      expect(read.json.error.message).toContain(`position ${position}`);
      // A rebuild stops at the row with the same error (it used to retry until its timeout).
      const rebuilt = await cairn(dir, 'projections:rebuild', 'memory');
      expect(rebuilt.code).toBe(1);
      expect(rebuilt.json.error).toMatchObject({ code: 'stored_event_unreadable', details: [{ position }] });
    },
  );

  it('an event a projection cannot apply (a memory item emptied to {}): projections:rebuild stops with projection_failed', async () => {
    const dir = tampered((_sql, db) => {
      db.prepare("UPDATE events SET data = '{}' WHERE type = 'MemoryItemCreated'").run();
    });
    const rebuilt = await cairn(dir, 'projections:rebuild', 'memory');
    expect(rebuilt.code).toBe(1);
    expect(rebuilt.json.error).toMatchObject({
      code: 'projection_failed',
      details: [{ projection: 'memory', message: expect.any(String) }],
    });
    expect(rebuilt.json.error.message).toMatch(
      /^projection memory failed \d+ times in a row: .*audit:verify/,
    );
    const verified = await cairn(dir, 'audit:verify');
    expect(verified.json.error).toMatchObject({
      code: 'hash_chain_broken',
      details: [{ stream: 'memory-item-1', revision: 0, reason: 'hash_mismatch' }],
    });
  });

  it('reordered events: hash_chain_broken', async () => {
    const res = await verifyAfter((sql) => {
      sql("UPDATE events SET revision = -1 WHERE stream = 'connector-1' AND revision = 0");
      sql("UPDATE events SET revision = 0 WHERE stream = 'connector-1' AND revision = 1");
      sql("UPDATE events SET revision = 1 WHERE stream = 'connector-1' AND revision = -1");
    });
    expect(res.code).toBe(1);
    expect(res.json.error).toMatchObject({ code: 'hash_chain_broken', details: [{ stream: 'connector-1' }] });
  });

  it("a stream's removed last event: log_chain_broken at the next event", async () => {
    const res = await verifyAfter((sql) =>
      sql(
        "DELETE FROM events WHERE stream = 'connector-1' AND revision = (SELECT MAX(revision) FROM events WHERE stream = 'connector-1')",
      ),
    );
    expect(res.code).toBe(1);
    expect(res.json.error).toMatchObject({
      code: 'log_chain_broken',
      details: [{ reason: 'log_link_broken' }],
    });
  });

  it('a removed stream: log_chain_broken', async () => {
    const res = await verifyAfter((sql) => sql("DELETE FROM events WHERE stream = 'chatbot-1'"));
    expect(res.code).toBe(1);
    expect(res.json.error).toMatchObject({
      code: 'log_chain_broken',
      details: [{ reason: 'log_link_broken' }],
    });
  });

  it('a truncated log: caught against the anchor (and not without one: docs/audit.md says why)', async () => {
    const truncate = (sql: (statement: string) => void) =>
      sql(`DELETE FROM events WHERE position >= ${anchor.position}`);
    const withAnchor = await verifyAfter(truncate, '--anchor', JSON.stringify(anchor));
    expect(withAnchor.code).toBe(1);
    expect(withAnchor.json.error).toMatchObject({
      code: 'anchor_not_held',
      details: [{ position: anchor.position }],
    });
    const without = await verifyAfter(truncate);
    expect(without.code).toBe(0);
  });

  it('a rewritten log that recomputed every hash: caught against the anchor', async () => {
    const res = await verifyAfter(
      (sql) =>
        sql(`UPDATE events SET global_hash = X'${'f'.repeat(64)}' WHERE position = ${anchor.position}`),
      '--anchor',
      JSON.stringify(anchor),
    );
    expect(res.code).toBe(1);
    expect(['log_chain_broken', 'anchor_not_held']).toContain(res.json.error.code);
  });

  it("the issue's edit: revision 0 renumbered to -1, then another event's data edited: hash_chain_broken, anchors or projections:rebuild notwithstanding", async () => {
    const dir = tampered((sql, db) => {
      sql("UPDATE events SET revision = -1 WHERE stream = 'chatbot-1' AND revision = 0");
      editData(db, 'stream = ? AND revision = 1', ['chatbot-1'], { note: 'Mallory' });
    });
    const broken = {
      code: 'hash_chain_broken',
      details: [{ stream: 'chatbot-1', revision: -1, reason: 'revision_gap', expected_revision: 0 }],
    };
    const res = await cairn(dir, 'audit:verify');
    expect(res.code).toBe(1);
    expect(res.json.error).toMatchObject(broken);
    // The rebuild may carry the edit into the read models; the verify still fails.
    expect((await cairn(dir, 'projections:rebuild')).code).toBe(0);
    const after = await cairn(dir, 'audit:verify', '--anchor', JSON.stringify(anchor));
    expect(after.code).toBe(1);
    expect(after.json.error).toMatchObject(broken);
  });

  it.each([
    [
      'revision 0 renumbered to -1',
      "UPDATE events SET revision = -1 WHERE stream = 'chatbot-1' AND revision = 0",
      -1,
      0,
    ],
    [
      'revision 0 removed (the stream starts at 1)',
      "DELETE FROM events WHERE stream = 'chatbot-1' AND revision = 0",
      1,
      0,
    ],
    [
      'a revision skipped',
      "UPDATE events SET revision = 5 WHERE stream = 'chatbot-1' AND revision = 3",
      5,
      3,
    ],
    [
      'a revision duplicated',
      "UPDATE events SET revision = 1 WHERE stream = 'chatbot-1' AND revision = 2",
      1,
      2,
    ],
  ])(
    '%s, every hash recomputed: hash_chain_broken (revision_gap) without an anchor',
    async (_kind, statement, revision, expected_revision) => {
      const res = await verifyAfter((sql, db) => {
        dropUniqueRevisions(db);
        sql(statement);
        rechain(db);
      });
      expect(res.code).toBe(1);
      expect(res.json.error).toMatchObject({
        code: 'hash_chain_broken',
        details: [{ stream: 'chatbot-1', revision, reason: 'revision_gap', expected_revision }],
      });
    },
  );

  it('an event moved to a new stream (the stream column only): hash_chain_broken at the new stream', async () => {
    const res = await verifyAfter((sql) =>
      sql("UPDATE events SET stream = 'chatbot-9' WHERE stream = 'chatbot-1' AND revision = 3"),
    );
    expect(res.code).toBe(1);
    expect(res.json.error).toMatchObject({
      code: 'hash_chain_broken',
      details: [{ stream: 'chatbot-9', revision: 3, reason: 'revision_gap', expected_revision: 0 }],
    });
  });

  it('an event moved to another stream as its next revision: hash_chain_broken', async () => {
    // organization-2's registration comes right after chatbot-1's revision 2 in the log.
    const res = await verifyAfter((sql, db) => {
      dropUniqueRevisions(db);
      sql(
        "UPDATE events SET stream = 'chatbot-1', revision = 3 WHERE stream = 'organization-2' AND revision = 0",
      );
    });
    expect(res.code).toBe(1);
    expect(res.json.error).toMatchObject({
      code: 'hash_chain_broken',
      details: [{ stream: 'chatbot-1', revision: 3, reason: 'prev_hash_mismatch' }],
    });
  });

  it('two events of different streams swapped in the global order: log_chain_broken', async () => {
    const res = await verifyAfter((sql, db) => {
      const { position } = one<{ position: number }>(
        db,
        "SELECT position FROM events WHERE stream = 'chatbot-1' AND revision = 0",
      );
      sql(`UPDATE events SET position = -100 WHERE position = ${position}`);
      sql(`UPDATE events SET position = ${position} WHERE position = ${position + 1}`);
      sql(`UPDATE events SET position = ${position + 1} WHERE position = -100`);
    });
    expect(res.code).toBe(1);
    expect(res.json.error).toMatchObject({
      code: 'log_chain_broken',
      details: [{ reason: 'log_link_broken' }],
    });
  });

  it.each<[string, Tamper, string]>([
    [
      'the type',
      (sql) => sql("UPDATE events SET type = 'ChatbotDeleted' WHERE stream = 'chatbot-1' AND revision = 1"),
      'hash_mismatch',
    ],
    [
      'the event id',
      (sql) =>
        sql(
          "UPDATE events SET event_id = lower(hex(randomblob(16))) WHERE stream = 'chatbot-1' AND revision = 1",
        ),
      'hash_mismatch',
    ],
    [
      'the actor',
      (_sql, db) => editMetadata(db, 'chatbot-1', 1, { actor: 'operator:mallory' }),
      'hash_mismatch',
    ],
    [
      'the time',
      (_sql, db) => editMetadata(db, 'chatbot-1', 1, { occurred_at: '2020-01-01T00:00:00.000Z' }),
      'hash_mismatch',
    ],
    [
      'the organization',
      (_sql, db) => editMetadata(db, 'chatbot-1', 1, { organization_id: '2' }),
      'hash_mismatch',
    ],
    [
      'the stored hash',
      (_sql, db) => editMetadata(db, 'chatbot-1', 1, { hash: randomBytes(32).toString('hex') }),
      'hash_mismatch',
    ],
    [
      'the stored previous hash',
      (_sql, db) => editMetadata(db, 'chatbot-1', 1, { prev_hash: randomBytes(32).toString('hex') }),
      'prev_hash_mismatch',
    ],
    [
      'the actor, the metadata stored as JSON',
      (_sql, db) => editMetadata(db, 'chatbot-1', 1, { actor: 'operator:mallory' }, 'json'),
      'hash_mismatch',
    ],
    [
      'a key the hash does not cover added to the metadata',
      (_sql, db) => editMetadata(db, 'chatbot-1', 1, { approved_by: 'operator:mallory' }, 'json'),
      'hash_mismatch',
    ],
  ])('%s of an event edited: hash_chain_broken', async (_kind, tamper, reason) => {
    const res = await verifyAfter(tamper);
    expect(res.code).toBe(1);
    expect(res.json.error).toMatchObject({
      code: 'hash_chain_broken',
      details: [{ stream: 'chatbot-1', revision: 1, reason }],
    });
  });

  it.each([
    ['log hash', 'global_hash', 'log_hash_mismatch'],
    ['log link', 'global_prev_hash', 'log_link_broken'],
  ])("an event's stored %s edited: log_chain_broken", async (_kind, column, reason) => {
    const res = await verifyAfter((sql) =>
      sql(`UPDATE events SET ${column} = randomblob(32) WHERE stream = 'chatbot-1' AND revision = 1`),
    );
    expect(res.code).toBe(1);
    expect(res.json.error).toMatchObject({
      code: 'log_chain_broken',
      details: [{ stream: 'chatbot-1', revision: 1, reason }],
    });
  });

  it("an event's data edited with its stream's hashes recomputed: log_chain_broken (log_hash_mismatch)", async () => {
    const res = await verifyAfter((_sql, db) => {
      editData(db, 'stream = ? AND revision = 0', ['chatbot-1'], { name: 'Mallory' });
      // The stream chain alone recomputed: every hash of chatbot-1, none of the log's links.
      const links = db.prepare('SELECT position, global_prev_hash, global_hash FROM events').all() as Array<{
        position: number;
        global_prev_hash: Buffer;
        global_hash: Buffer;
      }>;
      rechain(db);
      const restore = db.prepare(
        'UPDATE events SET global_prev_hash = ?, global_hash = ? WHERE position = ?',
      );
      for (const link of links) restore.run(link.global_prev_hash, link.global_hash, link.position);
    });
    expect(res.code).toBe(1);
    expect(res.json.error).toMatchObject({
      code: 'log_chain_broken',
      details: [{ stream: 'chatbot-1', revision: 0, reason: 'log_hash_mismatch' }],
    });
  });

  it('an event edited before the anchor with every stream hash and log link recomputed: caught only against the anchor', async () => {
    const rewrite: Tamper = (_sql, db) => {
      editData(db, 'stream = ? AND revision = 0', ['chatbot-1'], { name: 'Mallory' });
      rechain(db);
    };
    const withAnchor = await verifyAfter(rewrite, '--anchor', JSON.stringify(anchor));
    expect(withAnchor.code).toBe(1);
    expect(withAnchor.json.error).toMatchObject({
      code: 'anchor_not_held',
      details: [{ position: anchor.position }],
    });
    // A consistent history: nothing without an anchor can tell (docs/audit.md).
    expect((await verifyAfter(rewrite)).code).toBe(0);
  });

  it("the log's first event removed: log_chain_broken at the next one", async () => {
    const res = await verifyAfter((sql) => sql('DELETE FROM events WHERE position = 1'));
    expect(res.code).toBe(1);
    expect(res.json.error).toMatchObject({
      code: 'log_chain_broken',
      details: [{ position: 2, reason: 'log_link_broken' }],
    });
  });

  it("the log's last event moved out of the global order (position -1): event_count_mismatch", async () => {
    const res = await verifyAfter((sql) =>
      sql('UPDATE events SET position = -1 WHERE position = (SELECT MAX(position) FROM events)'),
    );
    expect(res.code).toBe(1);
    expect(res.json.error).toMatchObject({
      code: 'event_count_mismatch',
      details: [{ reason: 'events_outside_the_log' }],
    });
  });

  it("a forged event at position 0, chained to its stream's last event: event_count_mismatch", async () => {
    const res = await verifyAfter((_sql, db) =>
      forgeChatbotEvent(db, {
        chatbotId: 1,
        organizationId: org,
        eventId: 'f0f0f0f0-0000-4000-8000-000000000000',
        position: 0,
      }),
    );
    expect(res.code).toBe(1);
    expect(res.json.error).toMatchObject({
      code: 'event_count_mismatch',
      details: [{ reason: 'events_outside_the_log', stored_events: expect.any(Number) }],
    });
  });

  it('a forged event at the end of a stream with a consistent stream hash but no log link: log_chain_broken', async () => {
    const res = await verifyAfter((_sql, db) =>
      forgeChatbotEvent(db, {
        chatbotId: 1,
        organizationId: org,
        eventId: 'f0f0f0f0-0000-4000-8000-000000000001',
        position: null,
      }),
    );
    expect(res.code).toBe(1);
    expect(res.json.error).toMatchObject({
      code: 'log_chain_broken',
      details: [{ stream: 'chatbot-1', revision: 4, reason: 'log_chain_missing' }],
    });
  });

  it("an event's log link removed (it looks older than the log chain): log_chain_broken", async () => {
    const res = await verifyAfter((sql) =>
      sql(
        "UPDATE events SET global_prev_hash = NULL, global_hash = NULL WHERE stream = 'chatbot-1' AND revision = 1",
      ),
    );
    expect(res.code).toBe(1);
    expect(res.json.error).toMatchObject({
      code: 'log_chain_broken',
      details: [{ stream: 'chatbot-1', revision: 1, reason: 'log_chain_missing' }],
    });
  });

  it('every log link removed (the store looks older than the log chain): caught only against the anchor', async () => {
    const strip: Tamper = (sql) => {
      sql('UPDATE events SET global_prev_hash = NULL, global_hash = NULL');
      sql("DELETE FROM events WHERE stream = 'connector-1' AND revision = 1");
    };
    const withAnchor = await verifyAfter(strip, '--anchor', JSON.stringify(anchor));
    expect(withAnchor.code).toBe(1);
    expect(withAnchor.json.error).toMatchObject({ code: 'anchor_not_held' });
    const without = await verifyAfter(strip);
    expect(without.code).toBe(0);
    // Said, not hidden: every event verified by its stream chain alone.
    expect(without.json).toMatchObject({ log_head: null, events_before_log_chain: without.json.events });
  });

  it('a whole stream removed, every hash and link recomputed: the anchored stream heads name it', async () => {
    const res = await verifyAfter(
      (sql, db) => {
        sql("DELETE FROM events WHERE stream = 'chatbot-1'");
        rechain(db);
      },
      '--anchor',
      anchorFile,
    );
    expect(res.code).toBe(1);
    expect(res.json.error).toMatchObject({
      code: 'anchor_not_held',
      details: [{ reason: 'stream_missing', stream: 'chatbot-1', anchored_revision: 2, log_revision: null }],
    });
  });

  it('no log chain (as on EventStoreDB) and a stream shortened: the anchored stream heads name it', async () => {
    const res = await verifyAfter(
      (sql) => {
        sql('UPDATE events SET global_prev_hash = NULL, global_hash = NULL');
        sql("DELETE FROM events WHERE stream = 'connector-1' AND revision = 1");
      },
      '--anchor',
      anchorFile,
    );
    expect(res.code).toBe(1);
    expect(res.json.error).toMatchObject({
      code: 'anchor_not_held',
      details: [{ reason: 'stream_truncated', stream: 'connector-1', anchored_revision: 1, log_revision: 0 }],
    });
  });

  describe('rows with the log link in their metadata JSON (written before the link had columns)', () => {
    it('verify alike, the anchor included', async () => {
      const res = await verifyAfter((_sql, db) => linksInMetadata(db), '--anchor', JSON.stringify(anchor));
      expect(res.code).toBe(0);
      expect(res.json).toMatchObject({ verified: true, events_before_log_chain: 0, anchor: { holds: true } });
    });

    it('an edited event: hash_chain_broken', async () => {
      const res = await verifyAfter((_sql, db) => {
        linksInMetadata(db);
        editData(db, 'stream = ? AND revision = 0', ['chatbot-1'], { name: 'Mallory' });
      });
      expect(res.code).toBe(1);
      expect(res.json.error).toMatchObject({
        code: 'hash_chain_broken',
        details: [{ stream: 'chatbot-1', revision: 0, reason: 'hash_mismatch' }],
      });
    });

    it('an edited log hash in the JSON: log_chain_broken', async () => {
      const res = await verifyAfter((sql, db) => {
        linksInMetadata(db);
        sql(
          `UPDATE events SET metadata = json_set(metadata, '$.global_hash', '${'e'.repeat(64)}') WHERE stream = 'chatbot-1' AND revision = 1`,
        );
      });
      expect(res.code).toBe(1);
      expect(res.json.error).toMatchObject({
        code: 'log_chain_broken',
        details: [{ stream: 'chatbot-1', revision: 1, reason: 'log_hash_mismatch' }],
      });
    });
  });

  it('refuses an anchor that is not one', async () => {
    const res = await verifyAfter(() => {}, '--anchor', '{"position": "x"}');
    expect(res.code).not.toBe(0);
    expect(res.json.error.code).toBe('validation_failed');
  });
});

/** A stored value with its last third cut off (a compressed payload or packed metadata no longer decodes). */
function cut(stored: Buffer | string): Buffer {
  if (!Buffer.isBuffer(stored)) throw new Error('expected a stored BLOB');
  return stored.subarray(0, Math.floor((stored.length * 2) / 3));
}

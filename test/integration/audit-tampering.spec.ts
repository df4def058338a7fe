import { cpSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodePayload, encodePayload } from '../../src/infrastructure/event-store/sqlite/event-payload';
import { openSqlite, type SqliteDatabase } from '../../src/infrastructure/sqlite/sqlite-connection';
import { cairn } from '../support/cli';
import { makeTempDir } from '../support/temp-dir';

/**
 * Invariant 8: audit:verify detects an edited, reordered or removed event, a removed stream and a truncated log
 * (against an anchor kept elsewhere), each exiting 1 and naming what broke; an untouched store verifies.
 */
describe('audit:verify against tampering (invariant 8)', () => {
  jest.setTimeout(60_000);
  const base = makeTempDir('cairn-audit-');
  const documents = makeTempDir('cairn-audit-documents-');
  const copies: Array<{ dir: string; cleanup: () => void }> = [];
  let anchor: { position: number; global_hash: string };

  beforeAll(async () => {
    const run = (...args: string[]) => cairn(base.dir, ...args);
    const first = await run('org:create', '--name', 'Alpha Dental');
    expect(first.code).toBe(0);
    const org = String(first.json.organization_id);
    expect((await run('connector:create', org, '--name', 'C', '--capabilities', 'memory_search')).code).toBe(
      0,
    );
    expect((await run('chatbot:create', org, '--name', 'Desk')).code).toBe(0);
    // A document large enough for its event's data to be stored compressed (event-payload.ts).
    const document = join(documents.dir, 'hours.md');
    writeFileSync(document, `# Hours\n\n${'We open at nine and close at five on weekdays. '.repeat(60)}`);
    expect((await run('memory:ingest', org, document)).code).toBe(0);
    expect((await run('org:create', '--name', 'Beta Dental')).code).toBe(0);
    const anchored = await run('audit:anchor');
    expect(anchored.code).toBe(0);
    anchor = { position: anchored.json.position, global_hash: anchored.json.global_hash };
    expect((await run('org:create', '--name', 'Gamma Dental')).code).toBe(0);
  });
  afterAll(() => {
    for (const copy of copies) copy.cleanup();
    base.cleanup();
    documents.cleanup();
  });

  /** A copy of the store with `tamper` run on its SQLite file; returns audit:verify's result on it. */
  async function verifyAfter(
    tamper: (sql: (statement: string) => void, db: SqliteDatabase) => void,
    ...args: string[]
  ) {
    const copy = makeTempDir('cairn-audit-copy-');
    copies.push(copy);
    cpSync(base.dir, copy.dir, { recursive: true });
    const db = openSqlite({ path: join(copy.dir, 'cairn.sqlite') });
    tamper((statement) => db.prepare(statement).run(), db);
    db.close();
    return cairn(copy.dir, 'audit:verify', ...args);
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
    const res = await verifyAfter((sql) =>
      sql("UPDATE events SET data = json_set(data, '$.name', 'Mallory') WHERE stream = 'chatbot-1'"),
    );
    expect(res.code).toBe(1);
    expect(res.json.error).toMatchObject({
      code: 'hash_chain_broken',
      details: [{ stream: 'chatbot-1', revision: 0, reason: 'hash_mismatch' }],
    });
  });

  it('an edited event stored compressed: hash_chain_broken', async () => {
    const res = await verifyAfter((_sql, db) => {
      const row = db
        .prepare<[], { position: number; data: Buffer }>(
          "SELECT position, data FROM events WHERE type = 'MemoryItemCreated'",
        )
        .get();
      expect(Buffer.isBuffer(row?.data)).toBe(true);
      const edited = decodePayload(row!.data).replace('nine', 'ten');
      db.prepare('UPDATE events SET data = ? WHERE position = ?').run(encodePayload(edited), row!.position);
    });
    expect(res.code).toBe(1);
    expect(res.json.error).toMatchObject({
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

  it('refuses an anchor that is not one', async () => {
    const res = await verifyAfter(() => {}, '--anchor', '{"position": "x"}');
    expect(res.code).not.toBe(0);
    expect(res.json.error.code).toBe('validation_failed');
  });
});

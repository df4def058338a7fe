import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { openSqlite, type SqliteDatabase } from '../../src/infrastructure/sqlite/sqlite-connection';
import { editData, editMetadata } from '../support/sqlite-tampering';
import { cairn } from '../support/cli';
import { MAIN_JS, startServerProcess, stopAllServers, type ServerProcess } from '../support/server-process';
import { makeTempDir } from '../support/temp-dir';

const B = '/app/api/tool-connectors/v1';

describe('recall-trace retention (traces:prune) keeps audit:verify passing', () => {
  jest.setTimeout(180_000);
  const temp = makeTempDir();
  const data = join(temp.dir, 'data');
  let server: ServerProcess;
  let token: string;
  afterAll(async () => {
    await stopAllServers();
    temp.cleanup();
  });

  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${server.baseUrl}${B}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- arbitrary JSON bodies
    return { status: res.status, body: (await res.json()) as any };
  };
  const traceData = (traceId: number) => {
    const db = openSqlite({ path: join(data, 'cairn.sqlite'), readonly: true, mmapBytes: 0 });
    try {
      return db
        .prepare('SELECT json(data) FROM events WHERE stream = ? AND revision = 0')
        .pluck()
        .get(`recall-trace-${traceId}`) as string;
    } finally {
      db.close();
    }
  };

  it('prunes search traces to a stub, keeps reply traces, and the store and an earlier anchor still verify', async () => {
    server = await startServerProcess(
      { CAIRN_DATA_DIR: data },
      { args: [MAIN_JS, '--demo', '--demo-model'] },
    );
    const [line] = await server.waitForLines(/^\s+cairn_[A-Za-z0-9_-]{43}$/m, 1, 30_000);
    token = line.trim();
    const searches: number[] = [];
    for (const query of ['Saturday opening hours', 'cleaning price', 'insurance']) {
      searches.push((await post('/memory/search', { query })).body.trace_id);
    }
    const reply = await post('/assistant/replies', {
      external_thread_id: 't-1',
      external_message_id: 'm-1',
      payload: { text: 'Are you open on Saturday?' },
    });
    expect(reply.body.ok).toBe(true);
    const replyTrace: number = reply.body.memory_recall_trace_id;
    const anchor = await cairn(data, 'audit:anchor');
    expect(anchor.code).toBe(0);

    // The configured retention (30 days by default) finds nothing this young.
    expect((await cairn(data, 'traces:prune')).json).toMatchObject({ pruned: 0, retention_days: 30 });
    const pruned = await cairn(data, 'traces:prune', '--older-than-days', '0');
    expect(pruned.json).toMatchObject({ ok: true, pruned: 3, retention_events: 1, retention_days: 0 });
    // Again: nothing left to prune, nothing appended.
    expect((await cairn(data, 'traces:prune', '--older-than-days', '0')).json).toMatchObject({
      pruned: 0,
      retention_events: 0,
    });

    for (const id of searches) {
      expect(JSON.parse(traceData(id))).toEqual({
        trace_id: id,
        organization_id: 1,
        connector_id: 1,
        purpose: 'search',
        pruned: true,
        pruned_at: expect.any(String),
      });
    }
    // A reply's trace is kept as written: its query sealed under the conversation's key (docs/audit.md, erasure).
    const kept = JSON.parse(traceData(replyTrace)) as Record<string, unknown>;
    expect(kept).toMatchObject({ purpose: 'reply', $sealed: expect.anything() });
    expect(JSON.stringify(kept)).not.toContain('Are you open on Saturday?');

    const verify = await cairn(data, 'audit:verify', '--anchor', JSON.stringify(anchor.json));
    expect(verify.json).toMatchObject({ ok: true, verified: true, anchor: { holds: true } });
    const audited = await cairn(data, 'audit:reply', '1', String(reply.body.reply_id));
    expect(audited.json).toMatchObject({ ok: true, verified: true });
    const retention = await cairn(data, 'audit:stream', 'trace-retention');
    expect(retention.json.events).toEqual([
      expect.objectContaining({
        type: 'RecallTracesPruned',
        data: expect.objectContaining({ positions: expect.any(Array) }),
      }),
    ]);
    expect(retention.json.events[0].data.positions).toHaveLength(3);

    // Usage cannot be reported against a pruned trace.
    expect(await post('/memory/usage', { trace_id: searches[0], used_item_ids: [1] })).toMatchObject({
      status: 404,
      body: { error: { code: 'trace_not_found' } },
    });
    await server.stop();
  });

  it.each([
    [
      'its connector',
      (db: SqliteDatabase, stream: string) => editData(db, 'stream = ?', [stream], { connector_id: 2 }),
    ],
    [
      'its organization',
      (db: SqliteDatabase, stream: string) => editData(db, 'stream = ?', [stream], { organization_id: 2 }),
    ],
    [
      'a key added',
      (db: SqliteDatabase, stream: string) => editData(db, 'stream = ?', [stream], { query: 'forged' }),
    ],
    [
      'its purpose',
      (db: SqliteDatabase, stream: string) => editData(db, 'stream = ?', [stream], { purpose: 'reply' }),
    ],
    [
      'its metadata (actor)',
      (db: SqliteDatabase, stream: string) => editMetadata(db, stream, 0, { actor: 'connector:2' }),
    ],
  ] as const)(
    'a listed stub edited (%s): hash_chain_broken (pruned_stub_edited), naming the trace',
    async (_kind, edit) => {
      const copy = makeTempDir();
      try {
        cpSync(data, copy.dir, { recursive: true });
        const db = openSqlite({ path: join(copy.dir, 'cairn.sqlite'), mmapBytes: 0 });
        edit(db, 'recall-trace-2');
        db.close();
        const res = await cairn(copy.dir, 'audit:verify');
        expect(res.code).toBe(1);
        expect(res.json.error).toMatchObject({
          code: 'hash_chain_broken',
          details: [{ stream: 'recall-trace-2', revision: 0, reason: 'pruned_stub_edited' }],
        });
      } finally {
        copy.cleanup();
      }
    },
  );

  it('a stub no retention event lists, or a stub where no search trace was, fails audit:verify', async () => {
    const file = join(data, 'cairn.sqlite');
    const stub = JSON.stringify({
      trace_id: 9,
      organization_id: 1,
      connector_id: 1,
      purpose: 'search',
      pruned: true,
    });
    const db = openSqlite({ path: file, mmapBytes: 0 });
    const reply = db
      .prepare(
        "SELECT position, data FROM events WHERE type = 'RecallTraceRecorded' AND json_extract(data, '$.purpose') = 'reply'",
      )
      .get() as { position: number; data: string };
    db.prepare('UPDATE events SET data = ? WHERE position = ?').run(stub, reply.position);
    db.close();
    const unlisted = await cairn(data, 'audit:verify');
    expect(unlisted).toMatchObject({
      code: 1,
      json: {
        error: {
          code: 'hash_chain_broken',
          details: [expect.objectContaining({ reason: 'pruned_without_record' })],
        },
      },
    });
    const restore = openSqlite({ path: file, mmapBytes: 0 });
    restore.prepare('UPDATE events SET data = ? WHERE position = ?').run(reply.data, reply.position);
    expect((await cairn(data, 'audit:verify')).json).toMatchObject({ verified: true });

    // A memory item's first event blanked the same way is not a trace: its hash no longer matches its content.
    const item = restore
      .prepare("SELECT position FROM events WHERE stream = 'memory-item-1' AND revision = 0")
      .pluck()
      .get() as number;
    restore.prepare('UPDATE events SET data = ? WHERE position = ?').run(stub, item);
    restore.close();
    expect(await cairn(data, 'audit:verify')).toMatchObject({
      code: 1,
      json: {
        error: { code: 'hash_chain_broken', details: [expect.objectContaining({ reason: 'hash_mismatch' })] },
      },
    });
  });
});

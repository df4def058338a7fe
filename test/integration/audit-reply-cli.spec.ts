import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DraftInput } from '../../src/ai/reply-model-contract';
import { openSqlite, type SqliteDatabase } from '../../src/infrastructure/sqlite/sqlite-connection';
import { cairn } from '../support/cli';
import { ingest } from '../support/memory-fixtures';
import { defaultDraft, reply, type ChatStep } from '../support/model-server';
import { REPLIES } from '../support/reply-fixtures';
import type { ReplyTenant } from '../support/reply-tenant';
import { editData, editMetadata, rechain } from '../support/sqlite-tampering';
import { makeTempDir } from '../support/temp-dir';
import { http } from '../support/test-app';
import { askA1, startToolHarness, type ToolHarness } from '../support/tool-harness';
import { toolReply } from '../support/tool-server';

/** A draft citing every memory evidence item and every tool result, one claim each. */
const citeEverything: ChatStep = (request) => {
  const input = request.input as DraftInput;
  const claims = [
    ...input.evidence.map((e) => ({
      text: e.excerpt.slice(0, 200),
      reference_ids: [e.reference_id],
      quotes: [{ reference_id: e.reference_id, text: e.excerpt.slice(0, 200) }],
    })),
    ...input.tool_results.map((r) => ({
      text: `Status: ${JSON.stringify(r.output)}`,
      reference_ids: [r.reference_id],
      quotes: [{ reference_id: r.reference_id, text: JSON.stringify(r.output) }],
    })),
  ];
  return reply.json({ ...defaultDraft(input), answer: claims.map((c) => c.text).join(' '), claims });
};

type Stream = {
  stream: string;
  role: string;
  chain_verified: boolean;
  missing: boolean;
  cited?: Record<string, unknown>;
  events: Array<{ type: string; revision: number }>;
};

/**
 * `audit:reply` through the real CLI on a reply that ran a tool, cited two memory items and got `corrected`
 * feedback: every stream bearing on it is listed (the cited revisions marked, one item revised since), and an
 * edited, removed or shortened bound stream makes it exit 1 naming that stream.
 */
describe('audit:reply lists every bound stream and fails on a tampered one (CLI)', () => {
  jest.setTimeout(120_000);
  let h: ToolHarness;
  let tenant: ReplyTenant;
  let replyId: number;
  let secondItem: number;
  let db: SqliteDatabase;
  const documents = makeTempDir('cairn-audit-reply-');

  beforeAll(async () => {
    h = await startToolHarness();
    tenant = await h.toolTenant('Audit reply', '/audit');
    secondItem = (
      await ingest(
        h.t.commands,
        tenant.organization_id,
        'Saturday hours',
        'The clinic is open on Saturday, 9:00 to 12:00.',
      )
    ).memory_item_id;
    h.tools.respond(
      '/audit',
      toolReply.json({ status: 'shipped', tracking_url: 'https://track.example.com/A1' }),
    );
    h.model.script.draft(askA1(), citeEverything);
    const res = await tenant.request(tenant.body('audited'));
    expect(res.status).toBe(200);
    expect(res.body.references.map((r: { memory_item_id: number }) => r.memory_item_id).sort()).toEqual(
      [tenant.memory_item_id, secondItem].sort(),
    );
    replyId = res.body.reply_id;
    const feedback = await http(h.t.baseUrl, 'POST', `${REPLIES}/${res.body.message_id}/feedback`, {
      token: tenant.token,
      body: {
        outcome: 'corrected',
        suggested_answer: 'The clinic is open Monday to Friday, 9:00 to 17:00.',
        external_feedback_id: 'audit-fix',
      },
    });
    expect(feedback.status).toBe(200);
    expect(feedback.body.proposal_id).toEqual(expect.any(Number));
    // The first item moves on after the reply: the audit still marks revision 1 as the one cited.
    const revised = join(documents.dir, 'hours.md');
    writeFileSync(revised, 'The clinic is open Monday to Friday, 7:30 to 18:00.');
    const revise = await cairn(
      h.t.dataDir,
      'memory:revise',
      String(tenant.organization_id),
      String(tenant.memory_item_id),
      revised,
    );
    expect(revise.code).toBe(0);
    db = openSqlite({ path: join(h.t.dataDir, 'cairn.sqlite') });
  });
  afterAll(async () => {
    db?.close();
    await h.close();
    documents.cleanup();
  });

  const audit = () => cairn(h.t.dataDir, 'audit:reply', String(tenant.organization_id), String(replyId));
  let listed: Stream[];

  it('lists every stream that bears on the reply, each chain verified', async () => {
    const res = await audit();
    expect(res.code).toBe(0);
    expect(res.json.verified).toBe(true);
    listed = res.json.streams;
    expect(listed.map((s) => s.role).sort()).toEqual([
      'cited memory item',
      'cited memory item',
      'conversation',
      'correction proposal',
      'feedback',
      'identity claim',
      'quota',
      'recall trace',
      'request',
      'thread binding',
      'tool run',
    ]);
    for (const s of listed) expect(s).toMatchObject({ chain_verified: true, missing: false });
    const byRole = (role: string) => listed.filter((s) => s.role === role);
    expect(byRole('tool run')[0].events.map((e) => e.type)).toEqual(['ToolRunStarted', 'ToolRunSucceeded']);
    expect(byRole('thread binding')[0].events.map((e) => e.type)).toEqual(['ThreadBound']);
    expect(byRole('correction proposal')[0].events.map((e) => e.type)).toEqual(['MemoryProposalCaptured']);
    const cited = Object.fromEntries(
      byRole('cited memory item').map((s) => [s.cited?.memory_item_id, s.cited]),
    );
    expect(cited[tenant.memory_item_id]).toEqual({
      memory_item_id: tenant.memory_item_id,
      cited_revision: 1,
      cited_event_revision: 0,
      current_revision: 2,
      moved_on: true,
      archived: false,
    });
    expect(cited[secondItem]).toMatchObject({ cited_revision: 1, current_revision: 1, moved_on: false });
  });

  /** Runs `tamper` on the live store's file, audits, then puts the stream's rows back as they were. */
  async function auditWith(tamper: () => void, stream: string) {
    const saved = db.prepare('SELECT * FROM events WHERE stream = ?').all(stream) as Array<
      Record<string, unknown>
    >;
    tamper();
    try {
      return await audit();
    } finally {
      const restore = db.prepare('UPDATE events SET stream = ?, metadata = ?, data = ? WHERE position = ?');
      for (const row of saved) restore.run(row.stream, row.metadata, row.data, row.position);
    }
  }

  it.each([
    'tool run',
    'thread binding',
    'correction proposal',
    'cited memory item',
    'feedback',
    'recall trace',
    'conversation',
    'identity claim',
    'request',
  ])('an edited %s stream fails the audit naming it', async (role) => {
    const target = listed.find((s) => s.role === role)!.stream;
    const res = await auditWith(() => editMetadata(db, target, 0, { actor: 'operator:mallory' }), target);
    expect(res.code).toBe(1);
    expect(res.json.error).toMatchObject({
      code: 'reply_audit_failed',
      details: [{ stream: target, role, missing: false, chain_break: { reason: 'hash_mismatch' } }],
    });
    expect((await audit()).code).toBe(0);
  });

  it.each(['tool run', 'correction proposal', 'cited memory item', 'thread binding'])(
    'a removed %s stream fails the audit as missing',
    async (role) => {
      const target = listed.find((s) => s.role === role)!.stream;
      const res = await auditWith(
        () => db.prepare("UPDATE events SET stream = stream || '-hidden' WHERE stream = ?").run(target),
        target,
      );
      expect(res.code).toBe(1);
      expect(res.json.error.details).toEqual([
        expect.objectContaining({ stream: target, role, missing: true, message: 'stream_missing' }),
      ]);
    },
  );

  it('a cited item rewritten so the cited revision is gone (every hash recomputed) fails the audit', async () => {
    const target = listed.find(
      (s) => s.role === 'cited memory item' && s.cited?.memory_item_id === secondItem,
    )!;
    const setRevision = (revision: number) => {
      editData(db, "stream = ? AND type = 'MemoryItemCreated'", [target.stream], { revision });
      rechain(db);
    };
    setRevision(7);
    let res;
    try {
      res = await audit();
    } finally {
      setRevision(1);
    }
    expect(res.code).toBe(1);
    expect(res.json.error.details).toEqual([
      expect.objectContaining({
        stream: target.stream,
        missing: true,
        chain_break: null,
        message: 'cited_revision_missing',
        cited: expect.objectContaining({
          cited_revision: 1,
          cited_event_revision: null,
          current_revision: 7,
        }),
      }),
    ]);
    expect((await audit()).code).toBe(0);
  });
});

import { ArchiveMemoryItemCommand } from '../../src/commands/memory/archive-memory-item.command';
import { ReviseMemoryItemCommand } from '../../src/commands/memory/revise-memory-item.command';
import { receiptHash, verifyReceiptHash } from '../../src/commands/replies/reply-receipt';
import { operatorContext } from '../../src/commands/shared/command-context';
import { changeConnector } from '../support/fixtures';
import { ingest } from '../support/memory-fixtures';
import {
  appendCompletion,
  issuedTokenIds,
  notReplayed,
  postReply,
  readStream,
  replyBody,
  replyConnector,
  replyStreamName,
  startReplyHarness,
  storedReceipt,
  type ReplyHarness,
  type TestConnector,
  writeRequestRecord,
} from '../support/reply-fixtures';

/** Spec §3 (completed rows), §5.4, §9.3-9.4: what a repeated request for a completed reply gets. */
describe('replay of completed replies (spec §3, §5.4, §9.3-9.4)', () => {
  let h: ReplyHarness;
  let main: TestConnector;
  const HOURS = 'When is the clinic open?';

  beforeAll(async () => {
    h = await startReplyHarness('Replay');
    main = await replyConnector(h);
    await ingest(
      h.t.commands,
      h.organizationId,
      'Opening hours',
      'The clinic is open Monday to Friday, 8:00 to 18:00.',
    );
  });
  afterAll(() => h.close());
  beforeEach(() => h.model.script.reset());

  /** Completes a fresh reply; returns its body and stream. */
  async function complete(connector: TestConnector, key: string, text = HOURS) {
    const res = await postReply(h, connector.token, replyBody(key, text));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ok: true, grounding: { idempotent_replay: false } });
    const stream = replyStreamName(h, connector.connector_id, key);
    expect((await readStream(h, stream)).map((e) => e.type)).toEqual(['ReplyRequested', 'ReplyCompleted']);
    return { body: res.body, stream };
  }

  it('a repeated identical request replays the same reply: no model call, nothing appended', async () => {
    const { body, stream } = await complete(main, 'replay-same');
    const receipt = await storedReceipt(h, stream);
    expect(receipt).toMatchObject({
      version: 2,
      reply_id: body.reply_id,
      assistant_message_id: body.message_id,
      final_text: body.suggested_response.text,
      source_links: body.source_links,
    });
    expect(verifyReceiptHash(receipt)).toBe(true);
    const before = await readStream(h, stream);
    const calls = h.model.calls.chat;

    const again = await postReply(h, main.token, replyBody('replay-same', HOURS));
    expect(again.status).toBe(200);
    expect(again.body.grounding.idempotent_replay).toBe(true);
    expect(again.body).toEqual({ ...body, grounding: { ...body.grounding, idempotent_replay: true } });
    expect(h.model.calls.chat).toBe(calls);
    expect(await readStream(h, stream)).toEqual(before);
  });

  describe('a completion whose receipt is not a replayable v2 receipt → completed_reply_requires_regeneration', () => {
    type Receipt = Record<string, unknown>;
    const rehash = (r: Receipt): Receipt => ({ ...r, receipt_hash: receiptHash(r) });
    const cases: Array<[string, (v2: Receipt) => Receipt]> = [
      [
        'a legacy v1 receipt',
        (v2) => ({ version: 1, reply_id: v2.reply_id, text: v2.final_text, references: v2.references }),
      ],
      ['an unknown version (3), hash recomputed', (v2) => rehash({ ...v2, version: 3 })],
      ['an unknown version (string "2")', (v2) => rehash({ ...v2, version: '2' })],
      ['a v2 receipt whose bound text was edited (hash kept)', (v2) => ({ ...v2, final_text: 'Open 24/7.' })],
      ['a v2 receipt with a tampered receipt_hash', (v2) => ({ ...v2, receipt_hash: '0'.repeat(64) })],
      [
        'a v2 receipt missing a bound field (hash recomputed)',
        (v2) => rehash(Object.fromEntries(Object.entries(v2).filter(([k]) => k !== 'evidence_fingerprints'))),
      ],
    ];

    it.each(cases)('%s', async (name, legacy) => {
      const key = `legacy-${name}`;
      const { body, stream } = await complete(main, key);
      const v2 = await storedReceipt(h, stream);
      await appendCompletion(h, stream, body.reply_id, legacy(v2));
      const before = await readStream(h, stream);
      const calls = h.model.calls.chat;

      const again = await postReply(h, main.token, replyBody(key, HOURS));
      expect(again.status).toBe(200);
      expect(again.body).toEqual(notReplayed('completed_reply_requires_regeneration', body.reply_id));
      expect(h.model.calls.chat).toBe(calls);
      expect(await readStream(h, stream)).toEqual(before);
    });

    it('a stream written by a v1 build only (request + v1 completion) is never replayed nor re-run', async () => {
      const key = 'legacy-only-v1';
      const body = replyBody(key, HOURS);
      const stream = replyStreamName(h, main.connector_id, key);
      const reply_id = await writeRequestRecord(h, main.connector_id, body, {
        version: 1,
        text: 'Open daily.',
      });
      const calls = h.model.calls.chat;
      const res = await postReply(h, main.token, body);
      expect(res.status).toBe(200);
      expect(res.body).toEqual(notReplayed('completed_reply_requires_regeneration', reply_id));
      expect(h.model.calls.chat).toBe(calls);
      expect((await readStream(h, stream)).map((e) => e.type)).toEqual(['ReplyRequested', 'ReplyCompleted']);
    });
  });

  it('a rotated token of the same connector replays; the old token is 401; the original token stays provenance', async () => {
    const rotating = await replyConnector(h);
    const [originalTokenId] = await issuedTokenIds(h, rotating.connector_id);
    const { body, stream } = await complete(rotating, 'rotate');
    const rotated = await changeConnector(h.t.commands, h.organizationId, rotating.connector_id, {
      type: 'RotateToken',
    });
    expect(rotated.active_token_id).not.toBe(originalTokenId);
    const calls = h.model.calls.chat;

    const old = await postReply(h, rotating.token, replyBody('rotate', HOURS));
    expect(old.status).toBe(401);
    expect(old.body.error.code).toBe('invalid_token');
    expect(old.headers.get('www-authenticate')).toMatch(/^Bearer/);

    const replay = await postReply(h, rotated.token as string, replyBody('rotate', HOURS));
    expect(replay.status).toBe(200);
    expect(replay.body).toEqual({ ...body, grounding: { ...body.grounding, idempotent_replay: true } });
    expect(h.model.calls.chat).toBe(calls);

    const events = await readStream(h, stream);
    expect(events.map((e) => e.type)).toEqual(['ReplyRequested', 'ReplyCompleted']);
    expect(events[0].data.token_id).toBe(originalTokenId);
    expect(await storedReceipt(h, stream)).toMatchObject({
      original_token_id: originalTokenId,
      current_token_id: originalTokenId,
    });
  });

  it('another connector of the same organization reusing the key and content gets its own new reply', async () => {
    const other = await replyConnector(h);
    const first = await complete(main, 'shared-key');
    const calls = h.model.calls.chat;

    const second = await complete(other, 'shared-key');
    expect(second.body.reply_id).not.toBe(first.body.reply_id);
    expect(second.body.message_id).not.toBe(first.body.message_id);
    expect(second.body.conversation_id).not.toBe(first.body.conversation_id);
    expect(h.model.calls.chat).toBe(calls + 2); // drafted and reviewed afresh
    expect(second.stream).not.toBe(first.stream);
    const [requested] = await readStream(h, second.stream);
    expect(requested.data).toMatchObject({
      connector_id: other.connector_id,
      reply_id: second.body.reply_id,
    });
    expect(await storedReceipt(h, first.stream)).toMatchObject({
      connector_id: main.connector_id,
      reply_id: first.body.reply_id,
    });
  });

  describe('a cited memory item that changed after completion → completed_reply_no_longer_available', () => {
    type Mutation = (itemId: number, documentKey: string, word: string) => Promise<unknown>;
    const change: Array<[string, string, Mutation]> = [
      [
        're-ingested with changed text',
        'zqreingest',
        (_id, document_key, word) =>
          ingest(h.t.commands, h.organizationId, 'Parking', `${word} garage parking now costs 5 EUR.`, {
            document_key,
          }),
      ],
      [
        'revised',
        'zqrevise',
        (id, _key, word) =>
          h.t.commands.execute(
            new ReviseMemoryItemCommand(
              h.organizationId,
              id,
              {
                content: `${word} garage parking is closed.`,
                format: 'markdown',
                title: null,
                source_date: null,
                expires_at: null,
              },
              operatorContext('test'),
            ),
          ),
      ],
      [
        'archived',
        'zqarchive',
        (id) =>
          h.t.commands.execute(new ArchiveMemoryItemCommand(h.organizationId, id, operatorContext('test'))),
      ],
    ];

    it.each(change)('%s', async (_name, word, mutate) => {
      const documentKey = `parking-${word}`;
      const item = await ingest(
        h.t.commands,
        h.organizationId,
        'Parking',
        `${word} garage parking is free.`,
        {
          document_key: documentKey,
        },
      );
      const key = `changed-${word}`;
      const question = `Is ${word} garage parking free?`;
      const { body, stream } = await complete(main, key, question);
      expect(body.references.map((r: { memory_item_id: number }) => r.memory_item_id)).toEqual([
        item.memory_item_id,
      ]);
      await mutate(item.memory_item_id, documentKey, word);
      const before = await readStream(h, stream);
      const calls = h.model.calls.chat;

      const again = await postReply(h, main.token, replyBody(key, question));
      expect(again.status).toBe(200);
      expect(again.body).toEqual(notReplayed('completed_reply_no_longer_available', body.reply_id));
      expect(h.model.calls.chat).toBe(calls);
      expect(await readStream(h, stream)).toEqual(before);
    });
  });

  it('a revoked token gets 401 on repeat (no replay); a token rotated in afterwards may replay', async () => {
    const revoking = await replyConnector(h);
    const { body, stream } = await complete(revoking, 'revoke');
    const revoked = await changeConnector(h.t.commands, h.organizationId, revoking.connector_id, {
      type: 'RevokeToken',
    });
    expect(revoked.revoked_token_id).toEqual(expect.any(String));
    const before = await readStream(h, stream);
    const calls = h.model.calls.chat;

    const res = await postReply(h, revoking.token, replyBody('revoke', HOURS));
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ ok: false, error: { code: 'invalid_token' } });
    expect(JSON.stringify(res.body)).not.toContain(body.suggested_response.text);
    expect(h.model.calls.chat).toBe(calls);
    expect(await readStream(h, stream)).toEqual(before);

    const fresh = await changeConnector(h.t.commands, h.organizationId, revoking.connector_id, {
      type: 'RotateToken',
    });
    const replay = await postReply(h, fresh.token as string, replyBody('revoke', HOURS));
    expect(replay.status).toBe(200);
    expect(replay.body.grounding.idempotent_replay).toBe(true);
    expect(replay.body.reply_id).toBe(body.reply_id);
  });

  it('a connector that lost assistant_reply gets 403 on repeat (current authorization re-checked)', async () => {
    const narrowed = await replyConnector(h);
    const { body, stream } = await complete(narrowed, 'capability');
    await changeConnector(h.t.commands, h.organizationId, narrowed.connector_id, {
      type: 'SetCapabilities',
      capabilities: ['memory_search'],
    });
    const before = await readStream(h, stream);
    const res = await postReply(h, narrowed.token, replyBody('capability', HOURS));
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('missing_capability');
    expect(JSON.stringify(res.body)).not.toContain(body.suggested_response.text);
    expect(await readStream(h, stream)).toEqual(before);
  });
});

import { execFileSync } from 'node:child_process';
import type { DraftInput } from '../../src/ai/reply-model-contract';
import { MEMORY_ITEMS } from '../../src/projections/memory.projection';
import { createConnector, createOrganization } from '../support/fixtures';
import { cairn, type CliResult } from '../support/cli';
import { connectMcp, toolError } from '../support/mcp-client';
import { ALL_MEMORY, ingest, MEMORY } from '../support/memory-fixtures';
import { defaultDraft, reply, type ChatStep } from '../support/model-server';
import { REPLIES, startModelApp } from '../support/reply-fixtures';
import { createReplyTenant, type ReplyTenant } from '../support/reply-tenant';
import type { ModelServer } from '../support/model-server';
import { http, startTestApp, type TestApp } from '../support/test-app';

/** A draft quoting every evidence excerpt whole, one claim each (so the answer holds the document's sentence). */
const quoteEverything: ChatStep = (request) => {
  const input = request.input as DraftInput;
  const claims = input.evidence.map((e) => ({
    text: e.excerpt,
    reference_ids: [e.reference_id],
    quotes: [{ reference_id: e.reference_id, text: e.excerpt }],
  }));
  return reply.json({ ...defaultDraft(input), answer: claims.map((c) => c.text).join(' '), claims });
};

const DOCUMENT_SENTENCE = 'The clinic is also open on Sunday from 10:00 to 14:00 at the Zephyr annex.';
const CUSTOMER_SENTENCE = 'My son Bartholomew Quince needs his allergy file moved to the Zephyr annex.';

/**
 * Every file of the data directory (WAL and key store included) that holds `text` as bytes. Read by a child
 * process: opening and closing the SQLite files in this process (the server's) would drop its POSIX locks on them.
 */
function filesHolding(dataDir: string, text: string): string[] {
  const script = `
    const { readdirSync, readFileSync } = require('node:fs');
    const { join } = require('node:path');
    const [dir, text] = process.argv.slice(1);
    const needle = Buffer.from(text, 'utf8');
    const found = readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => join(e.parentPath, e.name))
      .filter((p) => readFileSync(p).includes(needle));
    process.stdout.write(JSON.stringify(found));`;
  return JSON.parse(execFileSync(process.execPath, ['-e', script, dataDir, text]).toString()) as string[];
}

const printed = (result: CliResult): string => result.stdout + result.stderr;

/**
 * Issue 33 "Done when": a sentence of an ingested document, quoted by a reply, is found nowhere after memory:erase
 * (no file of the data directory after a checkpoint, no API or CLI output, not after projections:rebuild) while
 * audit:verify passes and lists the erasure; the same for a customer's message after conversation:erase and for a
 * whole organization after org:erase. Runs the real CLI (needs `npm run build`).
 */
describe('erasure by crypto-shredding (issue 33)', () => {
  jest.setTimeout(240_000);
  let model: ModelServer;
  let t: TestApp;
  let close: () => Promise<void>;
  let tenant: ReplyTenant;
  let itemId: number;

  beforeAll(async () => {
    ({ model, t, close } = await startModelApp());
    model.script.respond('draft', quoteEverything);
    tenant = await createReplyTenant(t, 'Erasure clinic');
    itemId = (
      await ingest(
        t.commands,
        tenant.organization_id,
        'Weekend hours',
        `# Weekend hours\n\n## Saturday\n\nClosed on Saturday.\n\n## Sunday\n\n${DOCUMENT_SENTENCE}\n\n## Parking\n\nParking is free behind the building.`,
      )
    ).memory_item_id;
  });
  afterAll(async () => {
    await close?.();
  });

  it('memory:erase: the cited sentence is gone from files, outputs and a rebuild; the audit lists it', async () => {
    const first = await tenant.request(tenant.body('erase-item'));
    expect(first.status).toBe(200);
    expect(JSON.stringify(first.body)).toContain(DOCUMENT_SENTENCE);
    expect(first.body.references.map((r: { memory_item_id: number }) => r.memory_item_id)).toContain(itemId);
    // The read models hold the text before the erasure. They keep chunk text deflated (as the search index keeps
    // its bodies), which a byte scan cannot read: erasure-redteam.spec.ts scans decoded SQLite values after an
    // erasure; here the store is asked.
    const stored = await t.stores.readStore.get(MEMORY_ITEMS, String(itemId));
    expect(JSON.stringify(stored)).toContain(DOCUMENT_SENTENCE);
    // The events hold it sealed from the start (large payloads are also compressed, so this reads them decoded).
    expect(await eventsHolding(DOCUMENT_SENTENCE, 'opened')).toBe(true);
    expect(await eventsHolding(DOCUMENT_SENTENCE, 'stored')).toBe(false);

    const erased = await cairn(
      t.dataDir,
      'memory:erase',
      String(tenant.organization_id),
      String(itemId),
      '--reason',
      'GDPR Art. 17 request #12',
    );
    expect(erased.code).toBe(0);
    expect(erased.json).toMatchObject({
      subject: `memory-item-${itemId}`,
      erased: true,
      changed: true,
      erased_by: expect.stringMatching(/^operator:/),
      read_models_forgot: true,
    });
    expect(erased.json.keys_destroyed).toBeGreaterThan(0);
    const again = await cairn(t.dataDir, 'memory:erase', String(tenant.organization_id), String(itemId));
    expect(again.json).toMatchObject({ changed: false, keys_destroyed: 0 });

    const replay = await tenant.request(tenant.body('erase-item'));
    expect(replay.body.system_status.code).toBe('completed_reply_no_longer_available');
    expect(JSON.stringify(replay.body)).not.toContain(DOCUMENT_SENTENCE);
    const view = await cairn(
      t.dataDir,
      'replies:show',
      String(tenant.organization_id),
      String(first.body.reply_id),
    );
    expect(printed(view)).not.toContain(DOCUMENT_SENTENCE);
    const audited = await cairn(
      t.dataDir,
      'audit:reply',
      String(tenant.organization_id),
      String(first.body.reply_id),
    );
    expect(printed(audited)).not.toContain(DOCUMENT_SENTENCE);

    await assertGoneAfterRebuild(DOCUMENT_SENTENCE, `memory-item-${itemId}`);
  });

  it('conversation:erase: the customer message is gone; an unknown conversation is 404-like (exit 1)', async () => {
    const asked = await tenant.request(
      tenant.body('erase-conversation', {
        payload: {
          text: `When is the clinic open? ${CUSTOMER_SENTENCE}`,
          subject: 'Hours',
          from: 'pat@example.com',
        },
      }),
    );
    expect(asked.status).toBe(200);
    const { conversation_id } = await tenant.thread('thread-erase-conversation');
    expect(filesHolding(t.dataDir, CUSTOMER_SENTENCE)).toEqual([]); // sealed from the start: no read model holds it
    const missing = await cairn(t.dataDir, 'conversation:erase', String(tenant.organization_id), '999999');
    expect(missing.code).toBe(1);
    expect(missing.json?.error?.code ?? printed(missing)).toContain('conversation_not_found');
    const erased = await cairn(
      t.dataDir,
      'conversation:erase',
      String(tenant.organization_id),
      String(conversation_id),
    );
    expect(erased.code).toBe(0);
    const thread = await tenant.thread('thread-erase-conversation');
    expect(JSON.stringify(thread.events)).not.toContain(CUSTOMER_SENTENCE);
    expect(JSON.stringify(thread.events)).toContain('[erased]');
    await assertGoneAfterRebuild(CUSTOMER_SENTENCE, `conversation-${conversation_id}`);
  });

  it('org:erase: every sealed text of the organization is gone', async () => {
    const other = await createOrganization(t.commands, 'Erased org');
    const secret = 'Our Zephyr annex door code changes every Tuesday at noon.';
    await ingest(t.commands, other.organization_id, 'Door codes', `# Doors\n\n${secret}`);
    const erased = await cairn(
      t.dataDir,
      'org:erase',
      String(other.organization_id),
      '--reason',
      'contract ended',
    );
    expect(erased.code).toBe(0);
    expect(erased.json).toMatchObject({ subject: `organization-${other.organization_id}`, changed: true });
    await assertGoneAfterRebuild(secret, `organization-${other.organization_id}`);
  });

  it('memory:erase of an item a proposal created: the proposal’s text goes with it, and a correction of it too', async () => {
    const PROPOSED = 'Late pick-up for the Zephyr annex is possible until 19:30 on Thursdays.';
    const CORRECTED = 'Late pick-up for the Zephyr annex is possible until 19:45 on Thursdays.';
    const connector = await createConnector(t.commands, tenant.organization_id, ALL_MEMORY);
    const propose = async (body: Record<string, unknown>): Promise<number> => {
      const res = await http(t.baseUrl, 'POST', `${MEMORY}/proposals`, { token: connector.token, body });
      expect(res.status).toBe(200);
      return res.body.proposal_id as number;
    };
    const org = String(tenant.organization_id);
    const created = await propose({
      title: 'Late pick-up',
      content: PROPOSED,
      proposed_policy: { customer_safe_candidate: true },
    });
    const approved = await cairn(t.dataDir, 'proposals:approve', org, String(created));
    expect(approved.code).toBe(0);
    const item = approved.json.memory_item_id as number;
    // A reply quoting the item, corrected by its reader: a correction proposal targeting the item, left for review.
    const asked = await tenant.request(
      tenant.body('erase-proposal', {
        payload: { text: 'Until when is late pick-up possible on Thursdays?', subject: 'Pick-up' },
      }),
    );
    expect(asked.body).toMatchObject({ ok: true });
    const feedback = await http(t.baseUrl, 'POST', `${REPLIES}/${asked.body.message_id}/feedback`, {
      token: tenant.token,
      body: { outcome: 'corrected', suggested_answer: CORRECTED, external_feedback_id: 'erase-proposal' },
    });
    expect(feedback.status).toBe(200);
    const correction = feedback.body.proposal_id as number;
    const before = await cairn(t.dataDir, 'proposals:list', org);
    expect(
      (before.json.proposals as { proposal_id: number; target_memory_item_id: number | null }[]).find(
        (p) => p.proposal_id === correction,
      ),
    ).toMatchObject({ target_memory_item_id: item });
    expect(filesHolding(t.dataDir, PROPOSED)).not.toEqual([]);
    expect(filesHolding(t.dataDir, CORRECTED)).not.toEqual([]);

    const erased = await cairn(t.dataDir, 'memory:erase', org, String(item), '--reason', 'wrong item');
    expect(erased.code).toBe(0);
    expect(erased.json).toMatchObject({
      subject: `memory-item-${item}`,
      linked_subjects: [`proposal-${created}`],
      changed: true,
      read_models_forgot: true,
    });
    const listed = await cairn(t.dataDir, 'proposals:list', org);
    const proposals = listed.json.proposals as { proposal_id: number; title: string; content?: string }[];
    expect(proposals.find((p) => p.proposal_id === created)).toMatchObject({ title: '[erased]' });
    expect(proposals.find((p) => p.proposal_id === correction)).toMatchObject({ title: '[erased]' });
    expect(printed(listed)).not.toContain(PROPOSED);
    // The reader's suggested answer went with the item too: its feedback events were sealed under the items the
    // reply cited as well as the conversation, as the answer itself was.
    const holding = (await t.stores.eventStore.readAll()).filter((e) =>
      JSON.stringify(e.data).includes(CORRECTED),
    );
    expect(holding.map((e) => e.type)).toEqual([]);
    const audited = await cairn(t.dataDir, 'audit:reply', org, String(asked.body.reply_id));
    expect(audited.code).toBe(0);
    expect(printed(audited)).not.toContain(CORRECTED);
    // A retry of the feedback is answered the same for its true text and for a guess: neither is confirmed.
    const retry = (suggested_answer: string) =>
      http(t.baseUrl, 'POST', `${REPLIES}/${asked.body.message_id}/feedback`, {
        token: tenant.token,
        body: { outcome: 'corrected', suggested_answer, external_feedback_id: 'erase-proposal' },
      });
    const [truth, guess] = [await retry(CORRECTED), await retry('Late pick-up ends at 18:00 on Thursdays.')];
    expect([truth.status, guess.status]).toEqual([200, 200]);
    expect(guess.body).toEqual(truth.body);
    await assertGoneAfterRebuild(PROPOSED, `memory-item-${item}`);
    const verified = await cairn(t.dataDir, 'audit:verify');
    expect(verified.json.erased).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ subject: `memory-item-${item}`, linked_subjects: [`proposal-${created}`] }),
      ]),
    );
  });

  /** Whether any event, as stored (sealed) or as the application reads it (opened), holds `text`. */
  async function eventsHolding(text: string, as: 'stored' | 'opened'): Promise<boolean> {
    const store = as === 'stored' ? t.stores.sealedEventStore! : t.stores.eventStore;
    return JSON.stringify(await store.readAll()).includes(text);
  }

  async function assertGoneAfterRebuild(text: string, subject: string): Promise<void> {
    expect(await eventsHolding(text, 'opened')).toBe(false);
    expect(filesHolding(t.dataDir, text)).toEqual([]);
    const rebuilt = await cairn(t.dataDir, 'projections:rebuild');
    expect(rebuilt.code).toBe(0);
    expect(printed(rebuilt)).not.toContain(text);
    expect(filesHolding(t.dataDir, text)).toEqual([]);
    const verified = await cairn(t.dataDir, 'audit:verify');
    expect(verified.code).toBe(0);
    expect(printed(verified)).not.toContain(text);
    expect(verified.json.erased).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ subject, erased_by: expect.stringMatching(/^operator:/) }),
      ]),
    );
  }
});

/** A connector forgets what it saved itself over REST; anything else is not found (spec: another's reads as absent). */
describe('POST …/memory/items/{id}/forget (connector-scoped erasure)', () => {
  let t: TestApp;
  let token: string;
  let organization: number;
  const NOTE = 'Customer Ada Lovelace prefers calls after 18:00 on weekdays.';

  beforeAll(async () => {
    t = await startTestApp();
    organization = (await createOrganization(t.commands, 'Forget org')).organization_id;
    token = (await createConnector(t.commands, organization, ALL_MEMORY)).token;
  });
  afterAll(async () => {
    await t?.close();
  });

  const forget = (id: number | string, as = token) =>
    http(t.baseUrl, 'POST', `${MEMORY}/items/${id}/forget`, {
      token: as,
      body: { reason: 'customer asked' },
    });

  it('erases its own saved item once (200, then 200 changed: false); the item is gone from fetch and search', async () => {
    const saved = await http(t.baseUrl, 'POST', `${MEMORY}/save`, {
      token,
      body: { kind: 'note', title: 'Call times', content: NOTE },
    });
    expect(saved.status).toBe(200);
    const id = saved.body.memory_item_id as number;
    const first = await forget(id);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ ok: true, memory_item_id: id, erased: true, changed: true });
    const again = await forget(id);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ changed: false, erased_at: first.body.erased_at });
    expect((await http(t.baseUrl, 'GET', `${MEMORY}/items/${id}`, { token })).status).toBe(404);
    const found = await http(t.baseUrl, 'POST', `${MEMORY}/search`, {
      token,
      body: { query: 'Ada Lovelace calls' },
    });
    expect(JSON.stringify(found.body)).not.toContain(NOTE);
    expect(filesHolding(t.dataDir, NOTE)).toEqual([]);
  });

  it('memory_forget over MCP: the same erasure, and not_found for an item the connector did not save', async () => {
    const saved = await http(t.baseUrl, 'POST', `${MEMORY}/save`, {
      token,
      body: { kind: 'note', title: 'Via MCP', content: 'Forget me over MCP.' },
    });
    const mcp = await connectMcp(t.baseUrl, token);
    try {
      const forgot = await mcp.callTool({
        name: 'memory_forget',
        arguments: { memory_item_id: saved.body.memory_item_id, reason: 'asked' },
      });
      expect(forgot.structuredContent).toMatchObject({ ok: true, erased: true, changed: true });
      const ingested = await ingest(t.commands, organization, 'Rules', 'Operator text.');
      const refused = await mcp.callTool({
        name: 'memory_forget',
        arguments: { memory_item_id: ingested.memory_item_id },
      });
      expect(toolError(refused)).toMatchObject({ ok: false, error: { code: 'memory_item_not_found' } });
    } finally {
      await mcp.close();
    }
  });

  it("is 404 for an item it did not save (an operator's document, another connector's note) and for a bad id", async () => {
    const ingested = await ingest(t.commands, organization, 'Hours', 'Open daily.');
    const other = (await createConnector(t.commands, organization, ALL_MEMORY)).token;
    const saved = await http(t.baseUrl, 'POST', `${MEMORY}/save`, {
      token: other,
      body: { kind: 'note', title: 'Other', content: 'Another note.' },
    });
    for (const res of [
      await forget(ingested.memory_item_id),
      await forget(saved.body.memory_item_id),
      await forget('x1'),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('memory_item_not_found');
    }
    expect(
      (await http(t.baseUrl, 'GET', `${MEMORY}/items/${saved.body.memory_item_id}`, { token: other })).status,
    ).toBe(200);
  });
});

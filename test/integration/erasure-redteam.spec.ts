import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cairn } from '../support/cli';
import { ok, outputHas, survivors } from '../support/erasure-scan';
import { makeTempDir } from '../support/temp-dir';
import { CreateChatbotCommand } from '../../src/commands/chatbots/create-chatbot.command';
import { operatorContext } from '../../src/commands/shared/command-context';
import { createConnector, createOrganization } from '../support/fixtures';
import { ALL_MEMORY, MEMORY, ingest } from '../support/memory-fixtures';
import { REPLIES, REPLY_CAPABILITIES, replyBody, startModelApp } from '../support/reply-fixtures';
import { createReplyTenant } from '../support/reply-tenant';
import { http, startTestApp } from '../support/test-app';

/**
 * Red-team of erasure (issue 33), written without reading the implementation: each test names one path the
 * erased text could survive on. Sentences are unique per attack so a hit names its path.
 */

describe('erasure red team (CLI, embedded store)', () => {
  jest.setTimeout(120_000);
  const temp = makeTempDir('cairn-red-');
  const data = join(temp.dir, 'data');
  const docs = join(temp.dir, 'docs');
  afterAll(() => temp.cleanup());

  // Revision 1 holds OLD (only in the first revision) and KEEP; revision 2 holds NEW and KEEP.
  const OLD = 'The vault combination is Zebra Quokka Nine Eleven.';
  const NEW = 'Der Schlüssel für das Archiv liegt unter der Fußmatte bei Jürgen Müßig.';
  const KEEP = 'Harbour ferries leave hourly from pier seven.';
  const OTHER_ORG = 'Unrelated sentence owned by the second organisation about pelicans.';
  let org = 0;
  let org2 = 0;
  let item = 0;
  let otherItem = 0;

  const doc = (...sections: string[]): string =>
    [
      '# Internal handbook',
      ...sections.map((s, i) => `## Section ${i + 1}\n\n${s}\n\nFiller paragraph ${i}.`),
    ].join('\n\n');

  beforeAll(async () => {
    mkdirSync(docs, { recursive: true });
    org = (await ok(cairn(data, 'org:create', '--name', 'Red Org'))).json.organization_id;
    org2 = (await ok(cairn(data, 'org:create', '--name', 'Other Org'))).json.organization_id;
    writeFileSync(join(docs, 'handbook.md'), doc(KEEP, OLD, 'Closing words.'));
    const ingested = await ok(cairn(data, 'memory:ingest', String(org), join(docs, 'handbook.md')));
    item = ingested.json.items[0].memory_item_id;
    writeFileSync(join(docs, 'handbook-v2.md'), doc(KEEP, NEW.normalize('NFD'), 'Closing words.'));
    await ok(cairn(data, 'memory:revise', String(org), String(item), join(docs, 'handbook-v2.md')));
    writeFileSync(join(docs, 'other.md'), doc(OTHER_ORG));
    const other = await ok(cairn(data, 'memory:ingest', String(org2), join(docs, 'other.md')));
    otherItem = other.json.items[0].memory_item_id;
    // Sanity: before erasure the sentences are found (so a clean scan later means something).
    const before = await ok(cairn(data, 'export', String(org)));
    expect(outputHas(before, [OLD])).toBe(true);
    // The scan sees the text where the read model keeps it deflated; the search index keeps no chunk text (its
    // bodies are read from the read model: issue 32).
    const found = survivors(data, [KEEP]).join('\n');
    expect(found).toMatch(/read_documents\.packed \[memory_items\] \(decoded value\)/);
    expect(found).not.toMatch(/search_index_documents/);
  });

  it('memory:erase: neither the old nor the current revision survives in any file or decoded SQLite value', async () => {
    const erased = await ok(cairn(data, 'memory:erase', String(org), String(item), '--reason', 'red team'));
    expect(erased.json).toMatchObject({ erased: true, changed: true });
    expect(outputHas(erased, [OLD, NEW, KEEP])).toBe(false);
    expect(survivors(data, [OLD, NEW, KEEP])).toEqual([]);
  });

  it('after erasure: export, audit:verify and memory views print none of it; audit lists the erasure', async () => {
    const exported = await cairn(data, 'export', String(org));
    expect(outputHas(exported, [OLD, NEW, KEEP])).toBe(false);
    const verified = await ok(cairn(data, 'audit:verify'));
    expect(JSON.stringify(verified.json.erased)).toContain(String(item));
    expect(outputHas(verified, [OLD, NEW, KEEP])).toBe(false);
  });

  it('the second organization keeps its text (erasure is scoped)', async () => {
    const exported = await ok(cairn(data, 'export', String(org2)));
    expect(outputHas(exported, [OTHER_ORG])).toBe(true);
    expect(otherItem).toBeGreaterThan(0);
  });

  it('projections:rebuild brings none of it back', async () => {
    await ok(cairn(data, 'projections:rebuild'));
    expect(survivors(data, [OLD, NEW, KEEP])).toEqual([]);
    const exported = await cairn(data, 'export', String(org));
    expect(outputHas(exported, [OLD, NEW, KEEP])).toBe(false);
  });

  it('a backup taken after the erasure holds none of it', async () => {
    const target = join(temp.dir, 'backup-after');
    await ok(cairn(data, 'backup', target));
    expect(survivors(target, [OLD, NEW, KEEP])).toEqual([]);
  });

  // Re-ingesting, revising or archiving an erased item: erasure-final.spec.ts (an erased item is never written again).

  // Leak (documented as not sealed: source labels and document keys): events.data of MemorySourceRegistered /
  // MemoryDocumentClaimed and read_documents.doc keep the file name after the item is erased.
  // Skipped: documented as not sealed (docs/audit.md: source labels and document keys stay readable).
  it.skip('a file name that echoes content does not survive the erasure of its item', async () => {
    const name = 'jane-doe-hiv-diagnosis-2026.md';
    writeFileSync(join(docs, name), doc('Patient notes for the red team.'));
    const ingested = await ok(cairn(data, 'memory:ingest', String(org), join(docs, name)));
    const id = ingested.json.items[0].memory_item_id;
    await ok(cairn(data, 'memory:erase', String(org), String(id)));
    expect(survivors(data, ['jane-doe-hiv-diagnosis'])).toEqual([]);
    expect(outputHas(await cairn(data, 'export', String(org)), ['jane-doe-hiv-diagnosis'])).toBe(false);
  });

  it('org:erase: nothing of the organization survives, the other organization still reads', async () => {
    const erased = await ok(cairn(data, 'org:erase', String(org2)));
    expect(erased.json).toMatchObject({ erased: true });
    expect(survivors(data, [OTHER_ORG])).toEqual([]);
    await ok(cairn(data, 'projections:rebuild'));
    expect(survivors(data, [OTHER_ORG])).toEqual([]);
    expect((await ok(cairn(data, 'audit:verify'))).json.verified).toBe(true);
  });
});

describe('erasure red team (server with model, CLI erasing while it runs)', () => {
  jest.setTimeout(120_000);
  const SECRET = 'Our back-office alarm code is Walrus Tangerine Forty Two.';
  const CORRECTION = 'The alarm code was changed to Heron Plum Seventeen at the start of the month.';
  const SAVED = 'Connector note: the landlord Ms Ottoline Barrowcliffe pays rent in cash.';
  const AFTER_REBUILD = 'Connector note: the boiler service is booked with Quillfeather Heating for March.';
  let h: Awaited<ReturnType<typeof startModelApp>>;
  let org = 0;
  let token = '';
  let item = 0;
  let messageId = 0;
  const replyKey = 'red-1';
  const question = 'What is the back-office alarm code?';

  beforeAll(async () => {
    h = await startModelApp();
    org = (await createOrganization(h.t.commands, 'Red Server Org')).organization_id;
    const { chatbot_id } = await h.t.commands.execute<CreateChatbotCommand, { chatbot_id: number }>(
      new CreateChatbotCommand(org, 'Desk', null, operatorContext('test')),
    );
    expect(chatbot_id).toBeGreaterThan(0);
    token = (await createConnector(h.t.commands, org, [...REPLY_CAPABILITIES, ...ALL_MEMORY])).token;
    item = (await ingest(h.t.commands, org, 'Alarm', `## Codes\n\n${SECRET}\n\n## Other\n\nNothing else.`))
      .memory_item_id;
  });
  afterAll(async () => h.close());

  const replies = (body: Record<string, unknown>) => http(h.t.baseUrl, 'POST', REPLIES, { token, body });
  const memory = (path: string, body: object) =>
    http(h.t.baseUrl, 'POST', `${MEMORY}${path}`, { token, body });

  it('setup: a reply cites the item, a correction of it is approved, a connector saves and forgets a note', async () => {
    const res = await replies(replyBody(replyKey, question));
    expect(res.status).toBe(200);
    expect(JSON.stringify(res.body)).toContain('Walrus Tangerine');
    messageId = res.body.message_id ?? res.body.assistant_message_id;
    const fb = await http(h.t.baseUrl, 'POST', `${REPLIES}/${messageId}/feedback`, {
      token,
      body: { outcome: 'corrected', suggested_answer: CORRECTION, external_feedback_id: 'fb-red-1' },
    });
    expect(fb.status).toBe(200);
    const approved = await cairn(h.t.dataDir, 'proposals:approve', String(org), String(fb.body.proposal_id));
    expect(approved.code).toBe(0);
    const saved = await memory('/save', { kind: 'handoff', title: 'Landlord', content: SAVED });
    expect(saved.status).toBe(200);
    const forgot = await memory(`/items/${saved.body.memory_item_id}/forget`, {});
    expect(forgot.status).toBe(200);
  });

  it('connector forget: the saved note survives nowhere in the data directory', () => {
    expect(survivors(h.t.dataDir, [SAVED])).toEqual([]);
  });

  it('memory:erase by the CLI while the server runs: search, replay and files no longer hold the item text', async () => {
    const erased = await cairn(
      h.t.dataDir,
      'memory:erase',
      String(org),
      String(item),
      '--reason',
      'red team',
    );
    expect(erased.json).toMatchObject({ erased: true, changed: true });
    const search = await memory('/search', { query: 'back-office alarm code Walrus Tangerine' });
    expect(JSON.stringify(search.body)).not.toContain('Walrus');
    const replay = await replies(replyBody(replyKey, question));
    expect(JSON.stringify(replay.body)).not.toContain('Walrus');
    expect(survivors(h.t.dataDir, [SECRET])).toEqual([]);
  });

  // The approved correction became a revision of the erased item; its text is also the feedback's suggested_answer.
  it('memory:erase: the approved correction (a revision of the item) survives nowhere', () => {
    expect(survivors(h.t.dataDir, [CORRECTION])).toEqual([]);
  });

  it('after the erasure (server still running), projections:rebuild and audit:verify hold', async () => {
    const rebuilt = await cairn(h.t.dataDir, 'projections:rebuild');
    expect(rebuilt.code).toBe(0);
    expect(survivors(h.t.dataDir, [SECRET])).toEqual([]);
    const verified = await cairn(h.t.dataDir, 'audit:verify');
    expect(verified.json.verified).toBe(true);
    expect(JSON.stringify(verified.json.erased)).toContain(String(item));
  });

  // The CLI ran beside the server, the scans read every file (from a child: data-dir-scan-child.js says why).
  it('after the CLI rebuild the running server still projects: a note saved now is found', async () => {
    const saved = await memory('/save', { kind: 'handoff', title: 'Boiler', content: AFTER_REBUILD });
    expect(saved.status).toBe(200);
    const found = await memory('/search', { query: 'boiler service Quillfeather' });
    expect(found.status).toBe(200);
    const ids = found.body.results.map((r: { memory_item_id: number }) => r.memory_item_id);
    expect(ids).toEqual([saved.body.memory_item_id]);
  });
});

describe('erasure red team: org:erase by the CLI while a server runs on the data directory', () => {
  jest.setTimeout(120_000);
  const KEPT = 'Kept organisation: the ferry to Lundy leaves at nine.';
  const GONE = 'Erased organisation: the cellar key hides inside the blue teapot.';
  let t: Awaited<ReturnType<typeof startTestApp>>;
  let kept = { org: 0, token: '' };
  let gone = { org: 0, token: '', item: 0 };

  beforeAll(async () => {
    t = await startTestApp();
    const a = (await createOrganization(t.commands, 'Kept Org')).organization_id;
    const b = (await createOrganization(t.commands, 'Gone Org')).organization_id;
    kept = { org: a, token: (await createConnector(t.commands, a, ALL_MEMORY)).token };
    gone = { org: b, token: (await createConnector(t.commands, b, ALL_MEMORY)).token, item: 0 };
    await ingest(t.commands, a, 'Ferry', KEPT);
    gone.item = (await ingest(t.commands, b, 'Cellar', GONE)).memory_item_id;
  });
  afterAll(async () => t.close());

  const search = (token: string, query: string) =>
    fetch(`${t.baseUrl}${MEMORY}/search`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query }),
    }).then(async (r) => ({ status: r.status, text: await r.text() }));

  it('the running server serves none of the erased organization and keeps serving the other one', async () => {
    expect((await search(gone.token, 'cellar key blue teapot')).text).toContain('teapot');
    const erased = await cairn(t.dataDir, 'org:erase', String(gone.org), '--reason', 'red team');
    expect(erased.json).toMatchObject({ erased: true });
    expect((await search(gone.token, 'cellar key blue teapot')).text).not.toContain('teapot');
    const other = await search(kept.token, 'ferry to Lundy');
    expect(other.status).toBe(200);
    expect(other.text).toContain('Lundy');
    expect(survivors(t.dataDir, [GONE])).toEqual([]);
  });

  it('projections:rebuild by the CLI while the server runs leaves the server able to read', async () => {
    expect((await cairn(t.dataDir, 'projections:rebuild')).code).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const other = await search(kept.token, 'ferry to Lundy');
    expect(other.status).toBe(200);
    expect(other.text).toContain('Lundy');
  });
});

describe('erasure red team: conversation:erase', () => {
  jest.setTimeout(120_000);
  const CUSTOMER = 'My name is Philippa Quarrington-Vale and my insurance number is QX 55 81 20 C.';
  const SUGGESTED = 'Tell Philippa Quarrington-Vale her claim is approved.';
  const NOTE = 'Philippa Quarrington-Vale was upset on the phone.';
  let h: Awaited<ReturnType<typeof startModelApp>>;
  let tenant: Awaited<ReturnType<typeof createReplyTenant>>;
  let conversation = 0;

  beforeAll(async () => {
    h = await startModelApp();
    tenant = await createReplyTenant(h.t, 'Red Conversations');
  });
  afterAll(async () => h.close());

  it('setup: a customer message, a reply, a corrected feedback and a connector search quoting the customer', async () => {
    const res = await tenant.request(
      tenant.body('conv-1', { payload: { text: `${CUSTOMER} When is the clinic open?` } }),
    );
    expect(res.status).toBe(200);
    conversation = (await tenant.thread('thread-conv-1')).conversation_id ?? 0;
    expect(conversation).toBeGreaterThan(0);
    const fb = await http(h.t.baseUrl, 'POST', `${REPLIES}/${res.body.message_id}/feedback`, {
      token: tenant.token,
      body: {
        outcome: 'corrected',
        suggested_answer: SUGGESTED,
        note: NOTE,
        external_feedback_id: 'conv-fb-1',
      },
    });
    expect(fb.status).toBe(200);
  });

  // Leak: the corrected feedback's suggested_answer stays in clear in read_documents [memory_proposals] (the
  // proposal is sealed under its own key, which a conversation erasure does not destroy).
  it('after conversation:erase the customer message, the feedback note and the suggested answer survive nowhere', async () => {
    const erased = await cairn(
      h.t.dataDir,
      'conversation:erase',
      String(tenant.organization_id),
      String(conversation),
    );
    expect(erased.json).toMatchObject({ erased: true, changed: true });
    expect(survivors(h.t.dataDir, [CUSTOMER])).toEqual([]);
    expect(survivors(h.t.dataDir, [NOTE])).toEqual([]);
    expect(survivors(h.t.dataDir, [SUGGESTED])).toEqual([]);
    const verified = await cairn(h.t.dataDir, 'audit:verify');
    expect(verified.json.verified).toBe(true);
    expect(JSON.stringify(verified.json.erased)).toContain(String(conversation));
  });

  // Leak: a rebuild of memory-proposals writes the suggested answer back in clear (the proposal event decrypts
  // under its own, live key), and proposals:list prints it.
  it('after conversation:erase, proposals:list and projections:rebuild do not show the suggested answer', async () => {
    expect((await cairn(h.t.dataDir, 'projections:rebuild', 'memory-proposals')).code).toBe(0);
    expect(survivors(h.t.dataDir, [SUGGESTED])).toEqual([]);
    const listed = await cairn(h.t.dataDir, 'proposals:list', String(tenant.organization_id));
    expect(listed.code).toBe(0);
    expect(outputHas(listed, [SUGGESTED])).toBe(false);
    // Not only the read models: no event opens to it any more (each copy was sealed under the conversation's key).
    const opened = JSON.stringify(await h.t.stores.eventStore.readAll());
    expect(opened).not.toContain(SUGGESTED);
    expect(opened).not.toContain(CUSTOMER);
  });

  // Only what is readable in files: a query sealed under the organization key is ciphertext here either way.
  it('a connector search whose query quoted the customer survives in no clear bytes after the conversation erasure', async () => {
    const search = await http(h.t.baseUrl, 'POST', `${MEMORY}/search`, {
      token: tenant.token,
      body: { query: 'Bartholomew Zanzibar-Oakhurst insurance opening hours' },
    });
    expect(search.status).toBe(200);
    const again = await tenant.request(
      tenant.body('conv-2', { payload: { text: 'Bartholomew Zanzibar-Oakhurst here: is the clinic open?' } }),
    );
    expect(again.status).toBe(200);
    const second = (await tenant.thread('thread-conv-2')).conversation_id ?? 0;
    await cairn(h.t.dataDir, 'conversation:erase', String(tenant.organization_id), String(second));
    expect(survivors(h.t.dataDir, ['Zanzibar-Oakhurst'])).toEqual([]);
  });
});

/**
 * Memory writes at their edges, over HTTP: a given summary is kept (never cut short), malformed policies and
 * unauthenticated calls change nothing, retries after an operator's revision replay instead of conflicting or
 * undoing it, the 404 bodies of every endpoint, and two organizations with identical content.
 */
import { ArchiveMemoryItemCommand } from '../../src/commands/memory/archive-memory-item.command';
import { ReviewProposalCommand } from '../../src/commands/memory/review-proposal.command';
import { ReviseMemoryItemCommand } from '../../src/commands/memory/revise-memory-item.command';
import { operatorContext } from '../../src/commands/shared/command-context';
import { createConnector, createOrganization } from '../support/fixtures';
import { ALL_MEMORY, MEMORY, ingest } from '../support/memory-fixtures';
import { http, startTestApp, type TestApp } from '../support/test-app';

describe('memory writes: edges, retries and isolation', () => {
  let t: TestApp;
  let org: number;
  let one: string;
  let two: string;
  let other: { org: number; token: string };

  beforeAll(async () => {
    t = await startTestApp();
    org = (await createOrganization(t.commands, 'Edges')).organization_id;
    one = (await createConnector(t.commands, org, ALL_MEMORY)).token;
    two = (await createConnector(t.commands, org, ALL_MEMORY)).token;
    const otherOrg = (await createOrganization(t.commands, 'Twin')).organization_id;
    other = { org: otherOrg, token: (await createConnector(t.commands, otherOrg, ALL_MEMORY)).token };
  });
  afterAll(async () => t.close());

  const post = (path: string, token: string | undefined, body: unknown) =>
    http(t.baseUrl, 'POST', `${MEMORY}/${path}`, token === undefined ? { body } : { token, body });
  const head = () => t.stores.eventStore.headPosition();
  const itemEvents = async (id: number) =>
    (await t.stores.eventStore.readStream(`memory-item-${id}`)).map((event) => event.type);
  const revise = (id: number, content: string) =>
    t.commands.execute(
      new ReviseMemoryItemCommand(
        org,
        id,
        { content, format: 'markdown', title: null, source_date: null, expires_at: null },
        operatorContext('test'),
      ),
    );

  it('stores a given summary as sent (trimmed), up to 1,000 characters; longer or blank is 422', async () => {
    const summary =
      `Gecko summary. ${'Every word of it is kept as the connector wrote it. '.repeat(18)}`.trim();
    expect(summary.length).toBeGreaterThan(900);
    const saved = await post('save', one, {
      kind: 'note',
      title: 'Gecko note',
      content: 'Gecko content.',
      summary: `  ${summary}  `,
    });
    expect(saved.status).toBe(200);
    const found = await post('search', one, { query: 'gecko' });
    expect(found.body.results[0].summary).toBe(summary);
    const before = await head();
    for (const bad of ['x'.repeat(1001), '   ', '']) {
      const res = await post('save', one, { kind: 'note', title: 'Bad summary', content: 'x', summary: bad });
      expect(res.status).toBe(422);
      expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain('summary');
    }
    expect(await head()).toBe(before);
  });

  it.each([[[]], [[{ customer_safe_candidate: true }]], ['yes'], [null], [true]])(
    'refuses proposed_policy %j with 422 and records nothing',
    async (policy) => {
      const before = await head();
      const res = await post('proposals', one, { title: 'Policy', content: 'x', proposed_policy: policy });
      expect(res.status).toBe(422);
      expect(res.body.ok).toBe(false);
      expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain('proposed_policy');
      expect(await head()).toBe(before);
    },
  );

  it('a save retried after an operator revised the note replays the first result and keeps the revision', async () => {
    const body = {
      kind: 'note',
      title: 'Iguana',
      content: 'Iguana tank at 30 degrees.',
      idempotency_key: 'iguana-1',
    };
    const first = await post('save', one, body);
    expect(first.status).toBe(200);
    await revise(first.body.memory_item_id, 'Iguana tank at 28 degrees.');
    const before = await head();
    const retried = await post('save', one, body);
    expect(retried.status).toBe(200);
    expect(retried.body).toEqual(first.body);
    expect(await head()).toBe(before);
    const item = await http(t.baseUrl, 'GET', `${MEMORY}/items/${first.body.memory_item_id}`, { token: one });
    expect(item.body.content).toBe('Iguana tank at 28 degrees.');
  });

  it('running an approval again never undoes a later operator revision of the item', async () => {
    const proposed = await post('proposals', one, {
      title: 'Lemur hours',
      content: 'Lemur house opens at 9.',
    });
    const approve = () =>
      t.commands.execute(
        new ReviewProposalCommand(org, proposed.body.proposal_id, { type: 'approve' }, operatorContext('t')),
      );
    const approved = await approve();
    await revise(approved.memory_item_id, 'Lemur house opens at 10.');
    expect(await approve()).toMatchObject({ changed: false, memory_item_id: approved.memory_item_id });
    expect(await itemEvents(approved.memory_item_id)).toEqual(['MemoryItemCreated', 'MemoryItemRevised']);
    const item = await http(t.baseUrl, 'GET', `${MEMORY}/items/${approved.memory_item_id}`, { token: two });
    expect(item.body.content).toBe('Lemur house opens at 10.');
  });

  it('fetch: unknown, archived and another connector’s private items share one 404 body', async () => {
    const unknown = await http(t.baseUrl, 'GET', `${MEMORY}/items/987654321`, { token: two });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({
      ok: false,
      error: { code: 'memory_item_not_found', message: expect.any(String), details: [] },
    });
    const mine = await post('save', one, { kind: 'note', title: 'Private tapir', content: 'tapir' });
    const archived = await ingest(t.commands, org, 'Old tapir page', 'tapir');
    await t.commands.execute(
      new ArchiveMemoryItemCommand(org, archived.memory_item_id, operatorContext('t')),
    );
    for (const id of [mine.body.memory_item_id, archived.memory_item_id]) {
      const res = await http(t.baseUrl, 'GET', `${MEMORY}/items/${id}`, { token: two });
      expect(res.status).toBe(404);
      expect(res.body).toEqual(unknown.body);
    }
  });

  it('usage: unknown and foreign traces share one 404 trace_not_found body; refusals record nothing', async () => {
    await ingest(t.commands, org, 'Okapi', 'Okapi feeding at noon.');
    const trace = (await post('search', one, { query: 'okapi' })).body;
    const item = trace.results[0].memory_item_id;
    const before = await head();
    const unknown = await post('usage', one, { trace_id: 987654321, used_item_ids: [item] });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('trace_not_found');
    for (const token of [two, other.token]) {
      const res = await post('usage', token, { trace_id: trace.trace_id, used_item_ids: [item] });
      expect(res.status).toBe(404);
      expect(res.body).toEqual(unknown.body);
    }
    expect((await post('usage', one, { trace_id: trace.trace_id, used_item_ids: [item + 1] })).status).toBe(
      422,
    );
    const tooMany = Array.from({ length: 101 }, (_, n) => n + 1);
    expect((await post('usage', one, { trace_id: trace.trace_id, used_item_ids: tooMany })).status).toBe(422);
    expect(await head()).toBe(before);
    const ok = await post('usage', one, { trace_id: trace.trace_id, used_item_ids: [item] });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ ok: true });
  });

  it('every memory endpoint answers 401 with WWW-Authenticate without a valid token, and records nothing', async () => {
    const before = await head();
    const calls: Array<[string, string, unknown]> = [
      ['POST', 'search', { query: 'x' }],
      ['GET', 'items/1', undefined],
      ['POST', 'save', { kind: 'note', title: 'x', content: 'x' }],
      ['POST', 'proposals', { title: 'x', content: 'x' }],
      ['POST', 'usage', { trace_id: 1, used_item_ids: [1] }],
    ];
    for (const [method, path, body] of calls) {
      for (const token of [undefined, `cairn_${'A'.repeat(43)}`]) {
        const options = {
          ...(token === undefined ? {} : { token }),
          ...(body === undefined ? {} : { body }),
        };
        const res = await http(t.baseUrl, method, `${MEMORY}/${path}`, options);
        expect(res.status).toBe(401);
        expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
        expect(res.body.ok).toBe(false);
      }
    }
    expect(await head()).toBe(before);
  });

  it('usage needs memory_search (403)', async () => {
    const saveOnly = (await createConnector(t.commands, org, ['memory_save'])).token;
    const res = await post('usage', saveOnly, { trace_id: 1, used_item_ids: [1] });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('missing_capability');
  });

  it('two organizations with identical saves, keys and proposals never see each other', async () => {
    const body = {
      kind: 'decision',
      title: 'Capybara',
      content: 'Capybara pool closes early.',
      idempotency_key: 'k1',
    };
    const mine = await post('save', one, { ...body, visibility: 'organization_internal' });
    const theirs = await post('save', other.token, { ...body, visibility: 'organization_internal' });
    expect(mine.status).toBe(200);
    expect(theirs.status).toBe(200);
    expect(theirs.body.memory_item_id).not.toBe(mine.body.memory_item_id);
    const ids = async (token: string) =>
      (await post('search', token, { query: 'capybara' })).body.results.map(
        (r: { memory_item_id: number }) => r.memory_item_id,
      );
    expect(await ids(two)).toEqual([mine.body.memory_item_id]);
    expect(await ids(other.token)).toEqual([theirs.body.memory_item_id]);
    const foreign = await http(t.baseUrl, 'GET', `${MEMORY}/items/${theirs.body.memory_item_id}`, {
      token: one,
    });
    expect(foreign.status).toBe(404);

    const proposal = { title: 'Axolotl tank', content: 'The axolotl tank is cold.' };
    const ours = await post('proposals', one, proposal);
    const twin = await post('proposals', other.token, proposal);
    expect(twin.body.proposal_id).not.toBe(ours.body.proposal_id);
    await t.commands.execute(
      new ReviewProposalCommand(org, ours.body.proposal_id, { type: 'approve' }, operatorContext('t')),
    );
    await expect(
      t.commands.execute(
        new ReviewProposalCommand(org, twin.body.proposal_id, { type: 'approve' }, operatorContext('t')),
      ),
    ).rejects.toMatchObject({ status: 404 });
    expect((await post('search', other.token, { query: 'axolotl' })).body.results).toEqual([]);
    expect((await post('search', two, { query: 'axolotl' })).body.results).toHaveLength(1);
  });
});

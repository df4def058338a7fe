import { ReviewProposalCommand } from '../../src/commands/memory/review-proposal.command';
import { operatorContext } from '../../src/commands/shared/command-context';
import { createConnector, createOrganization } from '../support/fixtures';
import { ALL_MEMORY, MEMORY, ingest } from '../support/memory-fixtures';
import { Clock } from '../../src/common/clock';
import { http, startTestApp, type TestApp } from '../support/test-app';

describe('memory save, proposals and usage (spec §4.3–4.5, §2.3, §2.4)', () => {
  let t: TestApp;
  let org: number;
  let one: string; // connector 1 of the organization
  let two: string; // connector 2 of the same organization (another client key)
  let stranger: string; // another organization
  let readOnly: string;

  beforeAll(async () => {
    t = await startTestApp();
    org = (await createOrganization(t.commands, 'Writes')).organization_id;
    one = (await createConnector(t.commands, org, ALL_MEMORY)).token;
    two = (await createConnector(t.commands, org, ALL_MEMORY)).token;
    readOnly = (await createConnector(t.commands, org, ['memory_search'])).token;
    const otherOrg = (await createOrganization(t.commands, 'Elsewhere')).organization_id;
    stranger = (await createConnector(t.commands, otherOrg, ALL_MEMORY)).token;
  });
  afterAll(async () => t.close());

  const post = (path: string, token: string, body: unknown) =>
    http(t.baseUrl, 'POST', `${MEMORY}/${path}`, { token, body });
  const ids = (res: { body: { results: Array<{ memory_item_id: number }> } }) =>
    res.body.results.map((r) => r.memory_item_id);

  it('save answers §2.3 and the next search finds the note (read-your-writes)', async () => {
    const res = await post('save', one, {
      kind: 'handoff',
      title: 'Handoff',
      content: 'Customer asked about quokka invoices.',
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ok: true,
      memory_source_id: expect.any(Number),
      memory_item_id: expect.any(Number),
      status: 'confirmed',
      visibility: 'tool_private',
      unsafe_flags: [],
    });
    expect(ids(await post('search', one, { query: 'quokka' }))).toEqual([res.body.memory_item_id]);
    const item = await http(t.baseUrl, 'GET', `${MEMORY}/items/${res.body.memory_item_id}`, { token: one });
    expect(item.body).toMatchObject({
      type: 'handoff',
      source_type: 'tool_work_log',
      content: 'Customer asked about quokka invoices.',
    });
  });

  it('tool_private is visible only to the same client key; organization_internal to the organization', async () => {
    const mine = await post('save', one, {
      kind: 'note',
      title: 'Private',
      content: 'wombat secret plan',
      visibility: 'tool_private',
    });
    const shared = await post('save', one, {
      kind: 'decision',
      title: 'Shared',
      content: 'wombat shared decision',
      visibility: 'organization_internal',
    });
    expect(ids(await post('search', one, { query: 'wombat' })).sort()).toEqual(
      [mine.body.memory_item_id, shared.body.memory_item_id].sort(),
    );
    expect(ids(await post('search', two, { query: 'wombat' }))).toEqual([shared.body.memory_item_id]);
    expect(ids(await post('search', two, { query: 'wombat', visibility: 'tool_private' }))).toEqual([]);
    expect(ids(await post('search', one, { query: 'wombat', visibility: 'tool_private' }))).toEqual([
      mine.body.memory_item_id,
    ]);
    expect(ids(await post('search', stranger, { query: 'wombat' }))).toEqual([]);
    for (const token of [two, stranger]) {
      const res = await http(t.baseUrl, 'GET', `${MEMORY}/items/${mine.body.memory_item_id}`, { token });
      expect(res.status).toBe(404);
    }
    const res = await http(t.baseUrl, 'GET', `${MEMORY}/items/${shared.body.memory_item_id}`, {
      token: stranger,
    });
    expect(res.status).toBe(404);
  });

  it('a tool_private search asks the index for the connector’s own items only, and sees a note saved since', async () => {
    const mine = await post('save', one, {
      kind: 'note',
      title: 'Private numbat',
      content: 'numbat private plan',
      visibility: 'tool_private',
    });
    const shared = await post('save', one, {
      kind: 'decision',
      title: 'Shared numbat',
      content: 'numbat shared decision',
      visibility: 'organization_internal',
    });
    const searched = jest.spyOn(t.stores.searchIndex, 'search');
    try {
      const asked = () => searched.mock.calls.map(([query]) => query.collapse?.values);
      // Filtered after ranking, a connector without private items had every matching chunk of the organization
      // ranked and read to be dropped (a blind attack: 26× a normal search on SciFact, growing with the corpus).
      expect(ids(await post('search', two, { query: 'numbat', visibility: 'tool_private' }))).toEqual([]);
      expect(asked()).toEqual([[]]);
      searched.mockClear();
      expect(ids(await post('search', one, { query: 'numbat', visibility: 'tool_private' }))).toEqual([
        mine.body.memory_item_id,
      ]);
      const [values] = asked();
      expect(values).toContain(mine.body.memory_item_id);
      expect(values).not.toContain(shared.body.memory_item_id);
      expect(values).toEqual([...(values ?? [])].sort((a, b) => a - b));
      // A note saved after that search is searched by the next one (the list is kept per corpus revision).
      const later = await post('save', one, {
        kind: 'note',
        title: 'Later numbat',
        content: 'numbat later note',
        visibility: 'tool_private',
      });
      expect(ids(await post('search', one, { query: 'numbat', visibility: 'tool_private' })).sort()).toEqual(
        [mine.body.memory_item_id, later.body.memory_item_id].sort(),
      );
      // Other visibilities are not restricted to values (they exclude others' private items instead).
      searched.mockClear();
      await post('search', one, { query: 'numbat' });
      await post('search', one, { query: 'numbat', visibility: 'organization_internal' });
      expect(asked()).toEqual([undefined, undefined]);
    } finally {
      searched.mockRestore();
    }
  });

  it('other searches ask the index to skip the private items they may not see, never a visible one', async () => {
    const save = (token: string, title: string, visibility: string) =>
      post('save', token, { kind: 'note', title, content: `wombat ${title}`, visibility });
    const onePrivate = await save(one, 'one private wombat', 'tool_private');
    const oneShared = await save(one, 'one shared wombat', 'organization_internal');
    const twoPrivate = await save(two, 'two private wombat', 'tool_private');
    const searched = jest.spyOn(t.stores.searchIndex, 'search');
    // Later than any search before (a list is brought up to date at most once a second: REFRESH_INTERVAL_MS).
    const clock = t.app.get(Clock);
    const later = clock.nowMs() + 60_000;
    const now = jest.spyOn(clock, 'nowMs').mockReturnValue(later);
    try {
      const excluded = () => [...(searched.mock.calls[0]?.[0].collapse?.excluded_values ?? [])];
      const search = async (token: string, visibility?: string) => {
        searched.mockClear();
        const found = ids(
          await post('search', token, { query: 'wombat', ...(visibility ? { visibility } : {}) }),
        );
        return { found, excluded: excluded() };
      };
      const [p1, s1, p2] = [onePrivate, oneShared, twoPrivate].map((r) => r.body.memory_item_id as number);
      // Filtered after ranking instead, one connector's notes of common words made another's searches read and
      // drop every one of them (2,000 notes: ~6 → ~83 ms a search on SciFact).
      const two_ = await search(two);
      expect(two_.excluded).toContain(p1);
      expect(two_.excluded).not.toContain(p2);
      expect(two_.excluded).not.toContain(s1);
      expect(two_.found).toEqual(expect.arrayContaining([s1, p2]));
      expect(two_.found).not.toContain(p1);
      const one_ = await search(one);
      expect(one_.excluded).toContain(p2);
      expect(one_.excluded).not.toContain(p1);
      expect(one_.found).toEqual(expect.arrayContaining([p1, s1]));
      expect(one_.found).not.toContain(p2);
      const internal = await search(one, 'organization_internal');
      expect(internal.excluded).toEqual(expect.arrayContaining([p1, p2]));
      expect(internal.excluded).not.toContain(s1);
      expect(internal.found).toContain(s1);
      expect(internal.found).not.toContain(p1);
      expect(internal.found).not.toContain(p2);
    } finally {
      now.mockRestore();
      searched.mockRestore();
    }
  });

  it('idempotency_key replays the first save; other content under the same key is 409', async () => {
    const body = {
      kind: 'work_log',
      title: 'Log',
      content: 'Processed refund 17.',
      idempotency_key: 'log-17',
    };
    const first = await post('save', one, body);
    const head = await t.stores.eventStore.headPosition();
    const again = await post('save', one, body);
    expect(again.body).toEqual(first.body);
    expect(await t.stores.eventStore.headPosition()).toBe(head);
    const changed = await post('save', one, { ...body, content: 'Processed refund 18.' });
    expect(changed.status).toBe(409);
    expect(changed.body.error.code).toBe('idempotency_key_reused');
    // The key is scoped to the client key: another connector's same key is a new save.
    const other = await post('save', two, body);
    expect(other.body.memory_item_id).not.toBe(first.body.memory_item_id);
  });

  it('unsafe content is blocked: 422 with unsafe_flags, nothing stored, the secret never echoed', async () => {
    const secret = 'AKIAZ7QWERTYUIOPASDF';
    const head = await t.stores.eventStore.headPosition();
    const res = await post('save', one, {
      kind: 'note',
      title: 'Keys',
      content: `aws key ${secret} and secret wJalrXUtnFEMI/K7MDENG/bPxRfiCYzEXAMPLEKEY0`,
    });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('unsafe_content');
    expect(res.body.unsafe_flags.length).toBeGreaterThan(0);
    expect(res.body.unsafe_flags[0]).toMatchObject({
      field: 'content',
      kind: expect.any(String),
      line: 1,
      column: expect.any(Number),
    });
    expect(JSON.stringify(res.body)).not.toContain(secret);
    expect(await t.stores.eventStore.headPosition()).toBe(head);
    const proposal = await post('proposals', one, {
      title: 'Card',
      content: 'Card 4539 4812 1388 9722 exp 12/30',
    });
    expect(proposal.status).toBe(422);
    expect(await t.stores.eventStore.headPosition()).toBe(head);
  });

  it('save validation: kinds, sizes, unknown fields, URLs', async () => {
    const head = await t.stores.eventStore.headPosition();
    for (const body of [
      { kind: 'poem', title: 'x', content: 'y' },
      { kind: 'note', title: '', content: 'y' },
      { kind: 'note', title: 'x', content: 'y'.repeat(100_001) },
      { kind: 'note', title: 'x', content: 'y', owner: 'me' },
      { kind: 'note', title: 'x', content: 'y', source_uri: 'javascript:alert(1)' },
      { kind: 'note', title: 'x', content: 'y', idempotency_key: 'has spaces' },
      { kind: 'note', title: 'x' },
    ]) {
      expect((await post('save', one, body)).status).toBe(422);
    }
    expect((await post('save', readOnly, { kind: 'note', title: 'x', content: 'y' })).status).toBe(403);
    expect(await t.stores.eventStore.headPosition()).toBe(head);
  });

  it('a proposal is captured, affects nothing until approved, then is customer-safe approved memory', async () => {
    const res = await post('proposals', one, {
      title: 'New price',
      content: 'A platypus cleaning costs $80.',
      proposed_type: 'fact',
      source_uri: 'https://clinic.example.com/prices',
      proposed_policy: { review_required: true, customer_safe_candidate: true },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ok: true,
      memory_source_id: expect.any(Number),
      proposal_id: expect.any(Number),
      status: 'captured',
      unsafe_flags: [],
    });
    expect(ids(await post('search', one, { query: 'platypus' }))).toEqual([]);
    expect((await post('proposals', readOnly, { title: 'x', content: 'y' })).status).toBe(403);
    expect(
      (await post('proposals', one, { title: 'x', content: 'y', proposed_policy: { auto_publish: true } }))
        .status,
    ).toBe(422);

    const approved = await t.commands.execute(
      new ReviewProposalCommand(org, res.body.proposal_id, { type: 'approve' }, operatorContext('test')),
    );
    expect(approved).toMatchObject({ status: 'approved', changed: true });
    const found = await post('search', two, { query: 'platypus' });
    expect(ids(found)).toEqual([approved.memory_item_id]);
    expect(found.body.results[0]).toMatchObject({ type: 'fact', source_type: 'memory_proposal' });
    const events = await t.stores.eventStore.readStream(`memory-item-${approved.memory_item_id}`);
    expect(events[0].data).toMatchObject({ audience: 'customer_safe', authority_level: 'approved_source' });
    // A second approval changes nothing; another organization cannot review it.
    expect(
      await t.commands.execute(
        new ReviewProposalCommand(org, res.body.proposal_id, { type: 'approve' }, operatorContext('t')),
      ),
    ).toMatchObject({ changed: false });
    await expect(
      t.commands.execute(
        new ReviewProposalCommand(
          org + 1000,
          res.body.proposal_id,
          { type: 'approve' },
          operatorContext('t'),
        ),
      ),
    ).rejects.toMatchObject({ status: 404 });
  });

  it('a rejected proposal keeps its history and never reaches memory', async () => {
    const res = await post('proposals', one, {
      title: 'Wrong',
      content: 'The narwhal room is open at night.',
    });
    await t.commands.execute(
      new ReviewProposalCommand(
        org,
        res.body.proposal_id,
        { type: 'reject', reason: 'false' },
        operatorContext('t'),
      ),
    );
    const history = await t.stores.eventStore.readStream(`memory-proposal-${res.body.proposal_id}`);
    expect(history.map((e) => e.type)).toEqual(['MemoryProposalCaptured', 'MemoryProposalRejected']);
    expect(ids(await post('search', one, { query: 'narwhal' }))).toEqual([]);
    await expect(
      t.commands.execute(
        new ReviewProposalCommand(org, res.body.proposal_id, { type: 'approve' }, operatorContext('t')),
      ),
    ).rejects.toMatchObject({ status: 409 });
  });

  it('usage: only the trace’s connector, only its results; reports move ranking', async () => {
    const x = await ingest(t.commands, org, 'Tip one', 'Brush twice daily with fluoride toothpaste ocelot.');
    const y = await ingest(t.commands, org, 'Tip two', 'Brush twice daily with fluoride toothpaste ocelot.');
    const first = await post('search', one, { query: 'ocelot toothpaste' });
    expect(ids(first)).toEqual([x.memory_item_id, y.memory_item_id]);
    const trace = first.body.trace_id;
    expect((await post('usage', two, { trace_id: trace, used_item_ids: [y.memory_item_id] })).status).toBe(
      404,
    );
    expect(
      (await post('usage', stranger, { trace_id: trace, used_item_ids: [y.memory_item_id] })).status,
    ).toBe(404);
    expect(
      (await post('usage', one, { trace_id: 987654321, used_item_ids: [y.memory_item_id] })).status,
    ).toBe(404);
    const foreign = await post('usage', one, { trace_id: trace, used_item_ids: [999999] });
    expect(foreign.status).toBe(422);
    expect((await post('usage', one, { trace_id: trace })).status).toBe(422);
    expect(
      (
        await post('usage', one, {
          trace_id: trace,
          used_item_ids: [x.memory_item_id],
          ignored_item_ids: [x.memory_item_id],
        })
      ).status,
    ).toBe(422);
    expect((await post('usage', one, { trace_id: 'abc', used_item_ids: [] })).status).toBe(422);

    const ok = await post('usage', one, {
      trace_id: trace,
      used_item_ids: [y.memory_item_id],
      ignored_item_ids: [x.memory_item_id],
    });
    expect(ok).toMatchObject({ status: 200, body: { ok: true } });
    const events = await t.stores.eventStore.readStream(`recall-trace-${trace}`);
    expect(events.map((e) => e.type)).toEqual(['RecallTraceRecorded', 'RecallUsageReported']);
    expect(ids(await post('search', one, { query: 'ocelot toothpaste' }))).toEqual([
      y.memory_item_id,
      x.memory_item_id,
    ]);
  });
});

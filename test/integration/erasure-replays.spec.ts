import { streams } from '../../src/events/domain-event';
import { cairn } from '../support/cli';
import { createConnector, createOrganization } from '../support/fixtures';
import { ALL_MEMORY, MEMORY } from '../support/memory-fixtures';
import { http, startTestApp, type TestApp } from '../support/test-app';

/**
 * A save retried with its idempotency key after the connector forgot the note it made (found by a black-box attack:
 * the true text replayed with 200 and a guess answered 409 idempotency_key_reused, which confirmed the erased text).
 * Now both are refused alike, 409 memory_item_erased, and nothing is written. And an approval run again after the
 * item it created was erased (it answered validation_failed: the erased proposal's text reads empty).
 */
describe('a save or an approval run again after its item was erased', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await startTestApp();
    const organization = (await createOrganization(t.commands, 'Replay org')).organization_id;
    token = (await createConnector(t.commands, organization, ALL_MEMORY)).token;
  });
  afterAll(async () => {
    await t?.close();
  });

  const NOTE = 'Customer Grace Hopper keeps her spare key under the blue flowerpot.';
  const save = (content: string, key: string) =>
    http(t.baseUrl, 'POST', `${MEMORY}/save`, {
      token,
      body: { kind: 'note', title: 'Spare key', content, idempotency_key: key },
    });

  it('refuses the true text and a guess alike (409 memory_item_erased), writing nothing', async () => {
    const saved = await save(NOTE, 'note-1');
    expect(saved.status).toBe(200);
    const id = saved.body.memory_item_id as number;
    // Before the erasure, a replay answers as the first save did, and another text is a reused key.
    expect((await save(NOTE, 'note-1')).body).toMatchObject({ memory_item_id: id });
    expect((await save('Another text.', 'note-1')).body).toMatchObject({
      error: { code: 'idempotency_key_reused' },
    });
    const forgot = await http(t.baseUrl, 'POST', `${MEMORY}/items/${id}/forget`, { token, body: {} });
    expect(forgot.body).toMatchObject({ erased: true, changed: true });

    const head = await t.stores.eventStore.headPosition();
    for (const content of [NOTE, 'A wrong guess about the spare key.']) {
      const replay = await save(content, 'note-1');
      expect(replay.status).toBe(409);
      expect(replay.body).toEqual({
        ok: false,
        error: { code: 'memory_item_erased', message: expect.any(String), details: [] },
      });
    }
    expect(await t.stores.eventStore.headPosition()).toBe(head);
    expect(await t.stores.eventStore.readStream(streams.memoryItem(id))).toHaveLength(1);
    // Another key saves the same text as a new note.
    const fresh = await save(NOTE, 'note-2');
    expect(fresh.status).toBe(200);
    expect(fresh.body.memory_item_id).not.toBe(id);
  });

  it('approving again a proposal whose item was erased is refused (409 memory_item_erased), writing nothing', async () => {
    const proposed = await http(t.baseUrl, 'POST', `${MEMORY}/proposals`, {
      token,
      body: { title: 'Gate code', content: 'The side gate opens with the code on the green card.' },
    });
    expect(proposed.status).toBe(200);
    const proposal = String(proposed.body.proposal_id);
    const organization = (await t.stores.eventStore.readStream(streams.memoryProposal(Number(proposal))))[0]
      .data.organization_id as number;
    const approved = await cairn(t.dataDir, 'proposals:approve', String(organization), proposal);
    expect(approved.code).toBe(0);
    const item = String(approved.json.memory_item_id);
    expect((await cairn(t.dataDir, 'memory:erase', String(organization), item)).code).toBe(0);
    const head = await t.stores.eventStore.headPosition();
    const again = await cairn(t.dataDir, 'proposals:approve', String(organization), proposal);
    expect(again).toMatchObject({ code: 1, json: { ok: false, error: { code: 'memory_item_erased' } } });
    expect(await t.stores.eventStore.headPosition()).toBe(head);
  });
});

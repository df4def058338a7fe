import { recallResults } from '../../src/events/memory/recall-results';
import type { RecallTraceRecorded } from '../../src/events/memory/recall.events';
import { createConnector, createOrganization } from '../support/fixtures';
import { ALL_MEMORY, MEMORY, ingest } from '../support/memory-fixtures';
import { startModelServer, type ModelServer } from '../support/model-server';
import { http, startTestApp, type TestApp } from '../support/test-app';

describe('hybrid search with CAIRN_EMBEDDING_MODEL (BM25 + embeddings, reciprocal rank fusion)', () => {
  let model: ModelServer;
  let t: TestApp;
  let token: string;
  let otherToken: string;
  let physician: number;
  let parking: number;

  beforeAll(async () => {
    model = await startModelServer();
    t = await startTestApp({
      CAIRN_EMBEDDING_MODEL: 'test-embedding',
      OPENAI_BASE_URL: model.url,
      OPENAI_API_KEY: 'test',
    });
    const org = (await createOrganization(t.commands, 'Hybrid')).organization_id;
    token = (await createConnector(t.commands, org, ALL_MEMORY)).token;
    otherToken = (await createConnector(t.commands, org, ALL_MEMORY)).token;
    physician = (await ingest(t.commands, org, 'Staff', 'The physician sees patients on Mondays.'))
      .memory_item_id;
    parking = (await ingest(t.commands, org, 'Parking', 'Free parking behind the building.')).memory_item_id;
  });
  afterAll(async () => {
    await t.close();
    await model.close();
  });

  const search = async (query: string, as = token, visibility?: string) => {
    const res = await http(t.baseUrl, 'POST', `${MEMORY}/search`, {
      token: as,
      body: { query, ...(visibility ? { visibility } : {}) },
    });
    const trace = await t.stores.eventStore.readStream(`recall-trace-${res.body.trace_id}`);
    const results = recallResults(trace[0].data as RecallTraceRecorded['data']);
    return {
      ids: res.body.results.map((r: { memory_item_id: number }) => r.memory_item_id),
      methods: results.map((r) => r.method),
    };
  };

  it('finds by meaning what BM25 cannot (method semantic), and says hybrid when both rank an item', async () => {
    const doctor = await search('doctor');
    expect(doctor.ids[0]).toBe(physician);
    expect(doctor.methods[0]).toBe('semantic');
    const both = await search('physician Mondays');
    expect(both.ids[0]).toBe(physician);
    expect(both.methods[0]).toBe('hybrid');
    expect(model.calls.embeddings).toBeGreaterThan(0);
  });

  it('stays lexical when the embedding model fails at query time', async () => {
    model.failEmbeddings(1, 500);
    const res = await search('parking');
    expect(res.ids).toEqual([parking]);
    expect(res.methods).toEqual(['lexical']);
  });

  it("never returns another connector's tool_private note through the vectors, and sees its own at once", async () => {
    const saved = await http(t.baseUrl, 'POST', `${MEMORY}/save`, {
      token: otherToken,
      body: { kind: 'note', title: 'Medic rota', content: 'The medic covers the physician on Fridays.' },
    });
    expect(saved.status).toBe(200);
    const note = saved.body.memory_item_id as number;
    // The other connector finds it by meaning right after the save (read-your-writes through the ANN index).
    const own = await search('dentist', otherToken);
    expect(own.ids).toContain(note);
    for (const visibility of [undefined, 'tool_private', 'organization_internal']) {
      const res = await search('dentist', token, visibility);
      expect(res.ids).not.toContain(note);
    }
  });
});

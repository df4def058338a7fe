/**
 * Memory search over HTTP beyond the basic shape (memory-search.spec.ts): the title weight, the default limit,
 * which chunks a result names, and the context package's budget and grouping.
 */
import { createConnector, createOrganization } from '../support/fixtures';
import { ALL_MEMORY, MEMORY, ingest } from '../support/memory-fixtures';
import { http, startTestApp, type TestApp } from '../support/test-app';

type Result = { memory_item_id: number; memory_chunk_ids: number[] };

/** Two items, one naming "warranty" in its title, the other (shorter) in its body. */
async function warrantyItems(t: TestApp): Promise<{ token: string; title: number; body: number }> {
  const org = await createOrganization(t.commands, 'Boost');
  const token = (await createConnector(t.commands, org.organization_id, ALL_MEMORY)).token;
  const title = await ingest(
    t.commands,
    org.organization_id,
    'Warranty',
    'Details for hardware bought from the online store last year.',
  );
  const body = await ingest(
    t.commands,
    org.organization_id,
    'Hardware',
    'The warranty covers hardware bought from the online store.',
  );
  return { token, title: title.memory_item_id, body: body.memory_item_id };
}

async function rankedIds(t: TestApp, token: string, body: object): Promise<number[]> {
  const res = await http(t.baseUrl, 'POST', `${MEMORY}/search`, { token, body });
  expect(res.status).toBe(200);
  return res.body.results.map((r: Result) => r.memory_item_id);
}

describe('memory search ranking and context package', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t.close());

  it('weighs a title word more than a body word by default (CAIRN_SEARCH_TITLE_BOOST 2)', async () => {
    expect(t.config.searchTitleBoost).toBe(2);
    const { token, title, body } = await warrantyItems(t);
    expect(await rankedIds(t, token, { query: 'warranty' })).toEqual([title, body]);
  });

  it('scores title and body as one field with CAIRN_SEARCH_TITLE_BOOST=1 (the shorter item first)', async () => {
    const flat = await startTestApp({ CAIRN_SEARCH_TITLE_BOOST: '1' });
    try {
      const { token, title, body } = await warrantyItems(flat);
      expect(await rankedIds(flat, token, { query: 'warranty' })).toEqual([body, title]);
    } finally {
      await flat.close();
    }
  });

  it('returns 10 results without a limit, and up to the limit asked', async () => {
    const org = await createOrganization(t.commands, 'Many');
    const token = (await createConnector(t.commands, org.organization_id, ALL_MEMORY)).token;
    for (let n = 1; n <= 12; n++) {
      await ingest(t.commands, org.organization_id, `Locker ${n}`, `Locker number ${n} is near the gym.`);
    }
    expect(await rankedIds(t, token, { query: 'locker' })).toHaveLength(10);
    expect(await rankedIds(t, token, { query: 'locker', limit: 12 })).toHaveLength(12);
    expect(await rankedIds(t, token, { query: 'locker', limit: 3 })).toHaveLength(3);
  });

  it('names only the matching chunks of a result; a fetch lists every chunk of the item', async () => {
    const org = await createOrganization(t.commands, 'Chunks');
    const token = (await createConnector(t.commands, org.organization_id, ALL_MEMORY)).token;
    const manual = await ingest(
      t.commands,
      org.organization_id,
      'Clinic manual',
      '# Parking\n\nPark behind the building.\n\n# Zeppelin\n\nThe zeppelin exhibit is upstairs.\n\n' +
        '# Payments\n\nCards and cash are accepted.',
    );
    expect(manual.chunks).toBe(3);
    const res = await http(t.baseUrl, 'POST', `${MEMORY}/search`, { token, body: { query: 'zeppelin' } });
    expect(res.body.results).toHaveLength(1);
    const [matched] = res.body.results[0].memory_chunk_ids as number[];
    expect(res.body.results[0].memory_chunk_ids).toEqual([matched]);
    const fetched = await http(t.baseUrl, 'GET', `${MEMORY}/items/${manual.memory_item_id}`, { token });
    expect(fetched.status).toBe(200);
    expect(fetched.body.memory_chunk_ids).toHaveLength(3);
    expect(fetched.body.memory_chunk_ids).toContain(matched);
    // Both chunk lists name chunks of the current revision, in document order on the fetch.
    expect([...fetched.body.memory_chunk_ids].sort((x: number, y: number) => x - y)).toEqual(
      fetched.body.memory_chunk_ids,
    );
  });

  it('names at most 10 matching chunks of a result, best first, and an item once however many chunks match', async () => {
    const org = await createOrganization(t.commands, 'Sections');
    const token = (await createConnector(t.commands, org.organization_id, ALL_MEMORY)).token;
    // Sections 1–12 say "zeppelin" as many times as their number (each 20 words long); 13 and 14 never do.
    const section = (n: number) =>
      `# Section ${n}\n\n${'zeppelin '.repeat(n <= 12 ? n : 0)}${'hangar '.repeat(n <= 12 ? 20 - n : 20)}`;
    const manual = await ingest(
      t.commands,
      org.organization_id,
      'Airship manual',
      Array.from({ length: 14 }, (_, i) => section(i + 1)).join('\n\n'),
    );
    const other = await ingest(t.commands, org.organization_id, 'Hangar notes', 'One zeppelin mention only.');
    expect(manual.chunks).toBe(14);
    const fetched = await http(t.baseUrl, 'GET', `${MEMORY}/items/${manual.memory_item_id}`, { token });
    const chunkIds = fetched.body.memory_chunk_ids as number[];
    const res = await http(t.baseUrl, 'POST', `${MEMORY}/search`, {
      token,
      body: { query: 'zeppelin', limit: 2 },
    });
    expect(res.status).toBe(200);
    expect(res.body.results.map((r: Result) => r.memory_item_id)).toEqual([
      manual.memory_item_id,
      other.memory_item_id,
    ]);
    // Sections 12 down to 3: the ten with the most mentions.
    expect(res.body.results[0].memory_chunk_ids).toEqual(
      Array.from({ length: 10 }, (_, i) => chunkIds[11 - i]),
    );
    const one = await http(t.baseUrl, 'POST', `${MEMORY}/search`, {
      token,
      body: { query: 'zeppelin', limit: 1 },
    });
    expect(one.body.results).toHaveLength(1);
    expect(one.body.results[0].memory_chunk_ids).toEqual(res.body.results[0].memory_chunk_ids);
  });

  it('keeps the context within 4,000 characters, says what was left out, and groups sections by type', async () => {
    const org = await createOrganization(t.commands, 'Budget');
    const token = (await createConnector(t.commands, org.organization_id, ALL_MEMORY)).token;
    const long = (n: number) =>
      `Tariff ${n}. ${'The tariff applies to every member of the club. '.repeat(12)}`;
    for (let n = 1; n <= 12; n++) {
      await ingest(t.commands, org.organization_id, `Tariff ${n}`, long(n), {
        type: n % 2 === 0 ? 'policy' : 'faq',
      });
    }
    const res = await http(t.baseUrl, 'POST', `${MEMORY}/search`, {
      token,
      body: { query: 'tariff', limit: 12, include_context_package: true },
    });
    expect(res.status).toBe(200);
    const pkg = res.body.context_package;
    expect(pkg.context.length).toBeLessThanOrEqual(4000);
    const shown = pkg.context.split('\n');
    expect(shown.length).toBeGreaterThan(0);
    expect(shown.length).toBeLessThan(12);
    expect(pkg.summary).toBe(
      `12 results from 12 sources for "tariff"; ${shown.length} fit in the context budget.`,
    );
    expect(Object.keys(pkg.sections).sort()).toEqual(['faq', 'policy']);
    expect(pkg.sections.faq).toHaveLength(6);
    expect(pkg.sections.policy).toHaveLength(6);
    const numbers = [...pkg.sections.faq, ...pkg.sections.policy].map((s: { n: number }) => s.n);
    expect(numbers.sort((x: number, y: number) => x - y)).toEqual(
      Array.from({ length: 12 }, (_, i) => i + 1),
    );
  });
});

import { ReviseMemoryItemCommand } from '../../src/commands/memory/revise-memory-item.command';
import { CreateChatbotCommand } from '../../src/commands/chatbots/create-chatbot.command';
import { operatorContext } from '../../src/commands/shared/command-context';
import { streams } from '../../src/events/domain-event';
import { cairn } from '../support/cli';
import { createConnector, createOrganization } from '../support/fixtures';
import { ingest, MEMORY } from '../support/memory-fixtures';
import { REPLIES, REPLY_CAPABILITIES, startModelApp } from '../support/reply-fixtures';
import { replyTenantOn, type ReplyTenant } from '../support/reply-tenant';
import { http, type TestApp } from '../support/test-app';
import { itemContent, MEMORY_ITEMS, type MemoryItemDocument } from '../../src/projections/memory.projection';

/**
 * A correction is a revision of the text the reply cited (spec §4.7 rule 2, issue 30): approving it through the
 * CLI changes that span only; every other section, field and search result stays as it was.
 */
const REVISION_1 = [
  '# Opening hours',
  '',
  '## Weekdays',
  'Monday to Wednesday and Friday: 8:00 to 18:00.',
  '',
  '## Saturday',
  'Saturday: 9:00 to 13:00, appointments only.',
  '',
  '## Sunday',
  'Closed on Sundays and public holidays.',
  '',
  '## Emergencies',
  'Emergency line, day and night: +41 44 555 01 00.',
  '',
].join('\n');
const REVISION_2 = REVISION_1.replace(
  'Friday: 8:00 to 18:00.',
  'Friday: 8:00 to 18:00.\n\nThursday: 8:00 to 20:00 (late opening).',
);
const DATES = {
  source_date: '2026-09-01T00:00:00.000Z',
  effective_at: '2026-09-15T00:00:00.000Z',
  expires_at: '2099-12-31T00:00:00.000Z',
};
const SATURDAY = 'Are you open on Saturday?';

describe('a correction revises only the cited span', () => {
  jest.setTimeout(120_000);
  let t: TestApp;
  let close: () => Promise<void>;
  let tenant: ReplyTenant;
  let reader: string;
  let org: string;
  let keys = 0;

  /** A tenant whose only memory is the multi-section hours document, at revision 2 (the Thursday line). */
  async function hoursTenant(name: string): Promise<ReplyTenant> {
    const organization_id = (await createOrganization(t.commands, name)).organization_id;
    const { chatbot_id } = await t.commands.execute<CreateChatbotCommand, { chatbot_id: number }>(
      new CreateChatbotCommand(organization_id, 'Front desk', null, operatorContext('test')),
    );
    const connector = await createConnector(t.commands, organization_id, REPLY_CAPABILITIES);
    const { memory_item_id } = await ingest(t.commands, organization_id, 'Opening hours', REVISION_1, {
      type: 'document',
      ...DATES,
    });
    await t.commands.execute(
      new ReviseMemoryItemCommand(
        organization_id,
        memory_item_id,
        { content: REVISION_2, format: 'markdown', title: null, source_date: null, expires_at: null },
        operatorContext('test'),
      ),
    );
    return replyTenantOn(t, {
      organization_id,
      chatbot_id,
      connector_id: connector.connector_id,
      token: connector.token,
      memory_item_id,
    });
  }

  /** GET …/memory/items/{id} (the §2.1 fields and content). */
  const item = async (id = tenant.memory_item_id, token = reader) =>
    (await http(t.baseUrl, 'GET', `${MEMORY}/items/${id}`, { token })).body;
  /** Every stored field of the item's current revision (the read model replies and search use). */
  const stored = async (id = tenant.memory_item_id) => {
    const doc = await t.stores.readStore.get<MemoryItemDocument>(MEMORY_ITEMS, String(id));
    if (!doc) throw new Error(`no item ${id}`);
    return doc;
  };
  const search = async (query: string, token = reader) =>
    (await http(t.baseUrl, 'POST', `${MEMORY}/search`, { token, body: { query } })).body.results.map(
      (r: Record<string, unknown>) => ({ memory_item_id: r.memory_item_id, excerpt: r.excerpt }),
    );
  /** Asks `text`, then gives `corrected` feedback with `answer`; returns the reply and the proposal id. */
  async function correct(on: ReplyTenant, text: string, answer: string) {
    const key = `ask-${(keys += 1)}`;
    const asked = await on.request(
      on.body(key, { payload: { text, subject: 'Hours', from: 'pat@example.com' } }),
    );
    expect(asked.body.ok).toBe(true);
    const feedback = await http(t.baseUrl, 'POST', `${REPLIES}/${asked.body.message_id}/feedback`, {
      token: on.token,
      body: { outcome: 'corrected', suggested_answer: answer, external_feedback_id: key },
    });
    expect(feedback.status).toBe(200);
    return { reply: asked.body, proposal_id: feedback.body.proposal_id as number };
  }

  beforeAll(async () => {
    ({ t, close } = await startModelApp());
    tenant = await hoursTenant('Hours clinic');
    org = String(tenant.organization_id);
    reader = (await createConnector(t.commands, tenant.organization_id, ['memory_search'])).token;
  });
  afterAll(() => close());

  it('approving a Saturday correction changes the Saturday line only: sections, fields and searches unchanged', async () => {
    const before = await item();
    const fieldsBefore = await stored();
    expect(before).toMatchObject({ content: REVISION_2, type: 'document', freshness_category: 'current' });
    expect(fieldsBefore).toMatchObject({ revision: 2, title: 'Opening hours', ...DATES });
    const searchesBefore = {
      sunday: await search('Sunday'),
      emergency: await search('emergency'),
      thursday: await search('Thursday'),
    };
    expect(searchesBefore.sunday).toEqual([
      expect.objectContaining({ memory_item_id: tenant.memory_item_id }),
    ]);

    const fixed = 'Saturday: 9:00 to 12:00, appointments only.';
    const { reply, proposal_id } = await correct(tenant, SATURDAY, fixed);
    expect(reply.references[0]).toMatchObject({
      memory_item_id: tenant.memory_item_id,
      reference_id: expect.stringMatching(new RegExp(`^mi${tenant.memory_item_id}-r2-`)),
    });

    // The operator sees what approval does before doing it.
    const shown = await cairn(t.dataDir, 'proposals:show', org, String(proposal_id));
    expect(shown.code).toBe(0);
    expect(shown.json).toMatchObject({
      proposal: {
        proposal_id,
        status: 'captured',
        cited: {
          memory_item_id: tenant.memory_item_id,
          revision: 2,
          span: 'Saturday: 9:00 to 13:00, appointments only.',
        },
      },
      target: {
        memory_item_id: tenant.memory_item_id,
        cited_revision: 2,
        current_revision: 2,
        archived: false,
      },
      diff: {
        old_text: 'Saturday: 9:00 to 13:00, appointments only.',
        new_text: fixed,
        lines: [
          '  ',
          '  ## Saturday',
          '- Saturday: 9:00 to 13:00, appointments only.',
          `+ ${fixed}`,
          '  ',
          '  ## Sunday',
        ],
      },
      approval: {
        policy: {
          applied: { audience: 'customer_safe', authority_level: 'approved_source' },
          override: null,
        },
        correction: { base_revision: 2, rebased: false },
        refused: null,
      },
    });

    const approved = await cairn(t.dataDir, 'proposals:approve', org, String(proposal_id));
    expect(approved.code).toBe(0);
    expect(approved.json).toMatchObject({
      ok: true,
      status: 'approved',
      memory_item_id: tenant.memory_item_id,
      policy: { applied: { audience: 'customer_safe', authority_level: 'approved_source' } },
      correction: { base_revision: 2, revision: 3, rebased: false },
    });

    const after = await item();
    const expected = REVISION_2.replace('Saturday: 9:00 to 13:00, appointments only.', fixed);
    expect(after.content).toBe(expected);
    for (const line of [
      'Monday to Wednesday and Friday: 8:00 to 18:00.',
      'Thursday: 8:00 to 20:00 (late opening).',
      'Closed on Sundays and public holidays.',
      'Emergency line, day and night: +41 44 555 01 00.',
    ])
      expect(after.content).toContain(line);
    // Over HTTP: the same §2.1 fields (the chunks are the new revision's).
    const { content: _old, memory_chunk_ids: _c1, ...viewBefore } = before;
    const { content: _new, memory_chunk_ids: _c2, ...viewAfter } = after;
    expect(viewAfter).toEqual(viewBefore);
    // Stored: every field but the content and its revision bookkeeping is the same.
    const changing = [
      'content_layout',
      'content_sha256',
      'chunks',
      'revision',
      'revision_date',
      'updated_at',
    ];
    const keptFields = (doc: MemoryItemDocument) =>
      Object.fromEntries(Object.entries(doc).filter(([key]) => !changing.includes(key)));
    const fieldsAfter = await stored();
    expect(fieldsAfter.revision).toBe(3);
    expect(itemContent(fieldsAfter)).toBe(expected);
    expect(keptFields(fieldsAfter)).toEqual(keptFields(fieldsBefore));
    expect(fieldsAfter).toMatchObject({
      title: 'Opening hours',
      summary: fieldsBefore.summary,
      audience: 'customer_safe',
      authority_level: 'approved_source',
      source_uri: 'https://clinic.example.com/faq',
      ...DATES,
    });
    expect({
      sunday: await search('Sunday'),
      emergency: await search('emergency'),
      thursday: await search('Thursday'),
    }).toEqual(searchesBefore);

    // A second approval changes nothing (the revision applied it once).
    const again = await cairn(t.dataDir, 'proposals:approve', org, String(proposal_id));
    expect(again.json).toMatchObject({ ok: true, changed: false, correction: { revision: 3 } });
    expect((await stored()).revision).toBe(3);

    // The next reply cites the corrected revision, with the item's dates and classification.
    const next = await tenant.request(
      tenant.body('after-fix', { payload: { text: SATURDAY, subject: 'Hours', from: 'pat@example.com' } }),
    );
    expect(next.body.ok).toBe(true);
    expect(next.body.suggested_response.text).toContain('9:00 to 12:00');
    expect(next.body.references[0]).toMatchObject({
      memory_item_id: tenant.memory_item_id,
      title: 'Opening hours',
      source_date: DATES.source_date,
      audience: 'customer_safe',
      authority: { role: 'authoritative' },
      freshness: { effective_at: DATES.effective_at, expires_at: DATES.expires_at },
    });
  });

  it('refuses a correction of an item revised since (memory_item_revised_since); --rebase applies it to the current revision', async () => {
    const fixed = 'Closed on Sundays; open on the first Sunday of the month, 10:00 to 12:00.';
    const { proposal_id } = await correct(tenant, 'Are you open on Sunday?', fixed);
    const cited = (await stored()).revision;
    // Meanwhile an operator changes the emergency number.
    const moved = (await item()).content.replace('+41 44 555 01 00', '+41 44 555 09 99');
    await t.commands.execute(
      new ReviseMemoryItemCommand(
        tenant.organization_id,
        tenant.memory_item_id,
        { content: moved, format: 'markdown', title: null, source_date: null, expires_at: null },
        operatorContext('test'),
      ),
    );

    const refused = await cairn(t.dataDir, 'proposals:approve', org, String(proposal_id));
    expect(refused.code).not.toBe(0);
    expect(refused.json).toMatchObject({ ok: false, error: { code: 'memory_item_revised_since' } });
    expect(refused.json.error.message).toContain('--rebase');
    expect((await item()).content).toBe(moved);
    const shown = await cairn(t.dataDir, 'proposals:show', org, String(proposal_id));
    expect(shown.json).toMatchObject({
      proposal: { status: 'captured' },
      target: { cited_revision: cited, current_revision: cited + 1 },
      approval: { refused: { code: 'memory_item_revised_since' } },
    });

    const rebased = await cairn(t.dataDir, 'proposals:approve', org, String(proposal_id), '--rebase');
    expect(rebased.code).toBe(0);
    expect(rebased.json).toMatchObject({
      correction: { base_revision: cited + 1, revision: cited + 2, rebased: true },
    });
    const after = await item();
    // The operator's revision and the correction both stand.
    expect(after.content).toBe(moved.replace('Closed on Sundays and public holidays.', fixed));
    expect(await stored()).toMatchObject({ title: 'Opening hours', audience: 'customer_safe', ...DATES });
  });

  it.each([
    ['archived', 'memory:archive', 'memory_item_archived'],
    ['erased', 'memory:erase', 'memory_item_erased'],
  ])(
    'refuses a correction of an %s item (shown and approved) recording nothing; it can then be rejected',
    async (state, command, code) => {
      const other = await hoursTenant(`${state} clinic`);
      const org = String(other.organization_id);
      const { proposal_id } = await correct(other, SATURDAY, 'Saturday: closed.');
      const itemEvents = async () =>
        (await t.stores.eventStore.readStream(streams.memoryItem(other.memory_item_id))).length;
      expect((await cairn(t.dataDir, command, org, String(other.memory_item_id))).code).toBe(0);
      const before = await itemEvents();

      const shown = await cairn(t.dataDir, 'proposals:show', org, String(proposal_id));
      expect(shown.json).toMatchObject({
        target: { archived: state === 'archived', erased: state === 'erased' },
        approval: { refused: { code } },
      });
      for (let attempt = 0; attempt < 2; attempt++) {
        const refused = await cairn(t.dataDir, 'proposals:approve', org, String(proposal_id));
        expect(refused.code).not.toBe(0);
        expect(refused.json).toMatchObject({ ok: false, error: { code } });
      }
      const events = await t.stores.eventStore.readStream(streams.memoryProposal(proposal_id));
      expect(events.map((e) => e.type)).toEqual(['MemoryProposalCaptured']);
      expect(await itemEvents()).toBe(before);

      const rejected = await cairn(
        t.dataDir,
        'proposals:reject',
        org,
        String(proposal_id),
        '--reason',
        state,
      );
      expect(rejected.code).toBe(0);
      expect(rejected.json).toMatchObject({ ok: true, status: 'rejected', changed: true });
    },
  );
});

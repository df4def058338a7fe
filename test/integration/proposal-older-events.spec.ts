import { StreamCommandExecutor } from '../../src/commands/shared/stream-command-executor';
import { systemContext } from '../../src/commands/shared/command-context';
import { IdGenerator } from '../../src/common/id-generator';
import { streams, type DomainEvent } from '../../src/events/domain-event';
import type { MemoryProposalCaptured } from '../../src/events/memory/proposal.events';
import { itemContent, MEMORY_ITEMS, type MemoryItemDocument } from '../../src/projections/memory.projection';
import { cairn } from '../support/cli';
import { createOrganization } from '../support/fixtures';
import { ingest } from '../support/memory-fixtures';
import { startTestApp, type TestApp } from '../support/test-app';

const HOURS = '## Saturday\nSaturday: 9:00 to 13:00.\n\n## Sunday\nClosed on Sundays.\n';

/**
 * Proposal streams written by older builds still load: a correction without `cited` is never applied by replacing
 * the whole item (refused, then rejectable); an approval recorded but not yet applied completes once.
 */
describe('proposal events of older builds', () => {
  jest.setTimeout(120_000);
  let t: TestApp;
  let org: number;

  beforeAll(async () => {
    t = await startTestApp();
    org = (await createOrganization(t.commands, 'Older events')).organization_id;
  });
  afterAll(() => t.close());

  /** A correction proposal of `item` as written by hand (as an older or interrupted build left it). */
  async function writeProposal(
    itemId: number,
    patch: Partial<MemoryProposalCaptured['data']>,
    more: DomainEvent[] = [],
  ) {
    const ids = t.app.get(IdGenerator);
    const proposal_id = await ids.next('memory_proposal');
    const data: MemoryProposalCaptured['data'] = {
      proposal_id,
      organization_id: org,
      memory_source_id: await ids.next('memory_source'),
      proposed_by: 'reply_feedback:1',
      connector_id: null,
      client_key: null,
      title: 'Opening hours',
      content: 'Saturday: 9:00 to 12:00.',
      proposed_type: 'correction',
      source_uri: null,
      proposed_policy: { review_required: true, customer_safe_candidate: false },
      target_memory_item_id: itemId,
      ...patch,
    };
    const events = [
      { type: 'MemoryProposalCaptured', data },
      ...more.map((e) => ({ ...e, data: { proposal_id, ...e.data } })),
    ];
    await t.app
      .get(StreamCommandExecutor)
      .append(streams.memoryProposal(proposal_id), events, 'no_stream', systemContext('older-build'), org);
    return proposal_id;
  }
  const content = async (id: number) =>
    itemContent((await t.stores.readStore.get<MemoryItemDocument>(MEMORY_ITEMS, String(id)))!);

  it('a correction captured without its cited span is refused (never replaces the whole item) and can be rejected', async () => {
    const { memory_item_id } = await ingest(t.commands, org, 'Opening hours', HOURS);
    const proposal = await writeProposal(memory_item_id, {});
    const shown = await cairn(t.dataDir, 'proposals:show', String(org), String(proposal));
    expect(shown.code).toBe(0);
    expect(shown.json).toMatchObject({
      proposal: { status: 'captured', cited: null },
      diff: { old_text: null, new_text: 'Saturday: 9:00 to 12:00.', lines: [] },
      approval: { refused: { code: 'cited_span_unknown' } },
    });
    const approved = await cairn(t.dataDir, 'proposals:approve', String(org), String(proposal));
    expect(approved.code).not.toBe(0);
    expect(approved.json).toMatchObject({ ok: false, error: { code: 'cited_span_unknown' } });
    expect(await content(memory_item_id)).toBe(HOURS);
    const rejected = await cairn(t.dataDir, 'proposals:reject', String(org), String(proposal));
    expect(rejected.json).toMatchObject({ ok: true, status: 'rejected', changed: true });
  });

  it('an approval recorded before its revision was appended completes once, replacing only the span', async () => {
    const { memory_item_id } = await ingest(t.commands, org, 'Opening hours', HOURS);
    const cited = {
      memory_item_id,
      revision: 1,
      reference_id: `mi${memory_item_id}-r1-c1`,
      reference_excerpt: 'Saturday: 9:00 to 13:00.',
      memory_chunk_id: null,
      span: 'Saturday: 9:00 to 13:00.',
    };
    const approval = {
      type: 'MemoryProposalApproved',
      data: {
        organization_id: org,
        memory_item_id,
        approved_by: 'operator:ana',
        base_revision: 1,
        rebased: false,
      },
    };
    const proposal = await writeProposal(memory_item_id, { cited }, [approval]);
    const completed = await cairn(t.dataDir, 'proposals:approve', String(org), String(proposal));
    expect(completed.json).toMatchObject({
      ok: true,
      changed: true,
      correction: { base_revision: 1, revision: 2 },
    });
    expect(await content(memory_item_id)).toBe(HOURS.replace('13:00', '12:00'));
    const again = await cairn(t.dataDir, 'proposals:approve', String(org), String(proposal));
    expect(again.json).toMatchObject({ ok: true, changed: false, correction: { revision: 2 } });
    const rejected = await cairn(t.dataDir, 'proposals:reject', String(org), String(proposal));
    expect(rejected.json).toMatchObject({ ok: false, error: { code: 'proposal_approved' } });
  });
});

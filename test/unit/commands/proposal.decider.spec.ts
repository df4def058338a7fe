import type { CorrectionTarget } from '../../../src/commands/memory/approval-plan';
import { proposalDecider, type ProposalCommand } from '../../../src/commands/memory/proposal.decider';
import { memoryItemDecider } from '../../../src/commands/memory/memory-item.decider';
import type { MemoryProposalCaptured, MemoryProposalEvent } from '../../../src/events/memory/proposal.events';
import type { MemoryContent, MemoryItemEvent } from '../../../src/events/memory/memory.events';
import { givenDecider } from '../../support/decider-spec';

const given = givenDecider(proposalDecider);

const HOURS_R1 = [
  '## Weekdays',
  'Monday to Friday: 8:00 to 18:00.',
  '',
  '## Saturday',
  'Saturday: 9:00 to 13:00.',
  '',
  '## Sunday',
  'Closed on Sundays.',
].join('\n');
const HOURS_R2 = HOURS_R1.replace('18:00.', '18:00.\nThursday: 8:00 to 20:00.');

const correction: MemoryProposalCaptured['data'] = {
  proposal_id: 5,
  organization_id: 1,
  memory_source_id: 9,
  proposed_by: 'reply_feedback:4',
  connector_id: 2,
  client_key: 'ck',
  title: 'Opening hours',
  content: 'Saturday: 9:00 to 12:00.',
  proposed_type: 'correction',
  source_uri: null,
  proposed_policy: { review_required: true, customer_safe_candidate: true },
  target_memory_item_id: 7,
  correction: null,
  cited: {
    memory_item_id: 7,
    revision: 2,
    reference_id: 'mi7-r2-c12',
    reference_excerpt: 'Saturday: 9:00 to 13:00.',
    memory_chunk_id: 12,
    span: 'Saturday: 9:00 to 13:00.',
  },
};
const newFact: MemoryProposalCaptured['data'] = {
  ...correction,
  proposal_id: 6,
  proposed_by: 'connector:2',
  content: 'Parking is behind the building.',
  proposed_type: 'fact',
  proposed_policy: { review_required: true, customer_safe_candidate: false },
  target_memory_item_id: null,
  cited: null,
};
const captured = (data: MemoryProposalCaptured['data']): MemoryProposalEvent => ({
  type: 'MemoryProposalCaptured',
  data,
});
const item = (patch: Partial<CorrectionTarget> = {}): CorrectionTarget => ({
  organization_id: 1,
  revision: 2,
  archived: false,
  erased: false,
  content: HOURS_R2,
  audience: 'customer_safe',
  authority_level: 'approved_source',
  applied: false,
  ...patch,
});
const approve = (
  target: CorrectionTarget | null,
  options: Partial<Extract<ProposalCommand, { type: 'ApproveProposal' }>['options']> = {},
): ProposalCommand => ({
  type: 'ApproveProposal',
  organization_id: 1,
  memory_item_id: 7,
  approved_by: 'operator:ana',
  options: { rebase: false, audience: null, ...options },
  target,
});
const reject = (target_applied: boolean | null): ProposalCommand => ({
  type: 'RejectProposal',
  organization_id: 1,
  rejected_by: 'operator:ana',
  reason: 'item archived',
  target_applied,
});
const keptPolicy = {
  proposed: correction.proposed_policy,
  applied: { audience: 'customer_safe' as const, authority_level: 'approved_source' as const },
  override: null,
};

describe('proposal decider: corrections', () => {
  it('approves a correction of the cited revision, recording the revision it applies to and the kept policy', () => {
    given([captured(correction)])
      .when(approve(item()))
      .then([
        {
          type: 'MemoryProposalApproved',
          data: {
            proposal_id: 5,
            organization_id: 1,
            memory_item_id: 7,
            approved_by: 'operator:ana',
            policy: keptPolicy,
            base_revision: 2,
            rebased: false,
          },
        },
      ]);
  });

  it('refuses an item revised since the cited revision; --rebase applies to the current one', () => {
    const moved = item({ revision: 3, content: `${HOURS_R2}\n\n## Emergencies\nCall 555-0100.` });
    given([captured(correction)])
      .when(approve(moved))
      .thenThrows('memory_item_revised_since');
    given([captured(correction)])
      .when(approve(moved, { rebase: true }))
      .then([
        {
          type: 'MemoryProposalApproved',
          data: expect.objectContaining({ base_revision: 3, rebased: true }) as never,
        },
      ]);
  });

  it('refuses a rebase when the cited text is no longer there exactly once', () => {
    const rewritten = item({ revision: 3, content: HOURS_R2.replace('13:00', '14:00') });
    given([captured(correction)])
      .when(approve(rewritten, { rebase: true }))
      .thenThrows('cited_span_not_found');
    const twice = item({ content: `${HOURS_R2}\nSaturday: 9:00 to 13:00.` });
    given([captured(correction)])
      .when(approve(twice))
      .thenThrows('cited_span_not_found');
  });

  it('refuses an archived or erased target without recording approval; the proposal can then be rejected', () => {
    given([captured(correction)])
      .when(approve(item({ archived: true })))
      .thenThrows('memory_item_archived');
    // Erased (archived or not): refused before its content, read as erased, is searched for the span.
    for (const archived of [false, true])
      given([captured(correction)])
        .when(approve(item({ erased: true, archived, content: '' })))
        .thenThrows('memory_item_erased');
    given([captured(correction)])
      .when(reject(false))
      .then([
        {
          type: 'MemoryProposalRejected',
          data: { proposal_id: 5, organization_id: 1, rejected_by: 'operator:ana', reason: 'item archived' },
        },
      ]);
  });

  it('lets an approval recorded but never applied (an older build, archived target) be rejected', () => {
    const approvedByOlderBuild: MemoryProposalEvent = {
      type: 'MemoryProposalApproved',
      data: { proposal_id: 5, organization_id: 1, memory_item_id: 7, approved_by: 'operator:old' },
    };
    given([captured(correction), approvedByOlderBuild])
      .when(reject(false))
      .then([expect.objectContaining({ type: 'MemoryProposalRejected' }) as never]);
    given([captured(correction), approvedByOlderBuild])
      .when(reject(true))
      .thenThrows('proposal_approved');
  });

  it('refuses a correction captured before the cited span was recorded (non-destructive)', () => {
    const { cited: _cited, ...older } = correction;
    given([captured(older)])
      .when(approve(item()))
      .thenThrows('cited_span_unknown');
  });

  it('refuses an audience override on a correction (it keeps its item)', () => {
    given([captured(correction)])
      .when(approve(item(), { audience: 'internal' }))
      .thenThrows('policy_override_not_applicable');
  });

  it('records an interrupted approval whose revision was applied without re-checking the span', () => {
    given([captured(correction)])
      .when(approve(item({ revision: 3, applied: true })))
      .then([expect.objectContaining({ type: 'MemoryProposalApproved' }) as never]);
  });
});

describe('proposal decider: new items', () => {
  it("applies the proposal's audience: customer_safe_candidate false is internal", () => {
    given([captured(newFact)])
      .when(approve(null))
      .then([
        {
          type: 'MemoryProposalApproved',
          data: {
            proposal_id: 6,
            organization_id: 1,
            memory_item_id: 7,
            approved_by: 'operator:ana',
            policy: {
              proposed: newFact.proposed_policy,
              applied: { audience: 'internal', authority_level: 'approved_source' },
              override: null,
            },
          },
        },
      ]);
  });

  it('records an explicit override and who made it', () => {
    given([captured(newFact)])
      .when(approve(null, { audience: 'customer_safe' }))
      .then([
        {
          type: 'MemoryProposalApproved',
          data: expect.objectContaining({
            approved_by: 'operator:ana',
            policy: {
              proposed: newFact.proposed_policy,
              applied: { audience: 'customer_safe', authority_level: 'approved_source' },
              override: 'customer_safe',
            },
          }) as never,
        },
      ]);
  });
});

it('gives a new item the authority the proposal names', () => {
  const supporting = {
    ...newFact,
    proposed_policy: { ...newFact.proposed_policy, authority_role: 'supporting' as const },
  };
  given([captured(supporting)])
    .when(approve(null))
    .then([
      {
        type: 'MemoryProposalApproved',
        data: expect.objectContaining({
          policy: {
            proposed: supporting.proposed_policy,
            applied: { audience: 'internal', authority_level: 'reference' },
            override: null,
          },
        }) as never,
      },
    ]);
});

describe('memory item decider: a correction revision', () => {
  const content = (text: string, chunk: number): MemoryContent => ({
    title: 'Opening hours',
    summary: 'Opening hours',
    content: text,
    content_sha256: `sha-${text}`,
    chunks: [{ memory_chunk_id: chunk, ordinal: 0, heading: null, text }],
    source_date: '2026-01-05T00:00:00.000Z',
    effective_at: '2026-01-06T00:00:00.000Z',
    expires_at: '2027-01-01T00:00:00.000Z',
  });
  const history: MemoryItemEvent[] = [
    {
      type: 'MemoryItemCreated',
      data: {
        ...content(HOURS_R1, 1),
        memory_item_id: 7,
        memory_source_id: 3,
        organization_id: 1,
        revision: 1,
        type: 'document',
        audience: 'customer_safe',
        authority_level: 'approved_source',
        visibility: 'organization_internal',
        owner_client_key: null,
        source_uri: null,
      },
    },
    {
      type: 'MemoryItemRevised',
      data: { ...content(HOURS_R2, 2), memory_item_id: 7, organization_id: 1, revision: 2 },
    },
  ];
  const corrected = HOURS_R2.replace('9:00 to 13:00', '9:00 to 12:00');
  const revise = (base_revision: number) =>
    ({
      type: 'ReviseMemoryItem',
      organization_id: 1,
      content: content(corrected, 3),
      proposal_id: 5,
      base_revision,
    }) as const;

  it('appends the revision made from the current one, once', () => {
    givenDecider(memoryItemDecider)(history)
      .when(revise(2))
      .then([
        {
          type: 'MemoryItemRevised',
          data: {
            ...content(corrected, 3),
            memory_item_id: 7,
            organization_id: 1,
            revision: 3,
            proposal_id: 5,
          },
        },
      ]);
  });

  it('refuses content made from an older revision', () => {
    givenDecider(memoryItemDecider)(history).when(revise(1)).thenThrows('memory_item_revised_since');
  });
});

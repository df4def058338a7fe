import type {
  CitedSpan,
  MemoryProposalApproved,
  MemoryProposalEvent,
  ProposalCorrection,
  ProposedPolicy,
} from '../events/memory/proposal.events';
import type { RecordedEvent } from '../infrastructure/event-store/event-store.port';
import { SEALING_RULES } from '../infrastructure/erasure/sealing-policy';
import { erasedConversation, erasedMemoryItem } from './erased-subjects';
import type { Projection, ProjectionContext } from './projection';

export const MEMORY_PROPOSALS = 'memory_proposals';
/**
 * Per memory item (id: the item's) and per conversation (id: `conversation-<id>`): the proposals whose text goes
 * when it is erased (those naming the item, the one creating it; the corrections suggested in the conversation).
 */
export const MEMORY_PROPOSAL_LINKS = 'memory_proposal_links';

interface ProposalLinksDocument {
  id: string;
  proposal_ids: number[];
  [key: string]: unknown;
}

export interface MemoryProposalDocument {
  id: string;
  proposal_id: number;
  organization_id: number;
  memory_source_id: number;
  status: 'captured' | 'approved' | 'rejected';
  title: string;
  content: string;
  proposed_type: string;
  source_uri: string | null;
  proposed_policy: ProposedPolicy;
  proposed_by: string;
  target_memory_item_id: number | null;
  /** For a correction from reply feedback: its reply, message, feedback and review item (else null). */
  correction: ProposalCorrection | null;
  /** For a correction: the cited revision and the text of it that approval replaces (null: not recorded). */
  cited: CitedSpan | null;
  /** Approved: the policy proposed and applied, and the operator's override (null otherwise, or not recorded). */
  approval_policy: NonNullable<MemoryProposalApproved['data']['policy']> | null;
  memory_item_id: number | null;
  reviewed_by: string | null;
  review_reason: string | null;
  created_at: string;
  reviewed_at: string | null;
  [key: string]: unknown;
}

/** Proposals for operators to review (`proposals:list`). */
export const memoryProposalsProjection: Projection = {
  name: 'memory-proposals',
  version: 5,
  collections: [
    { name: MEMORY_PROPOSALS, indexes: ['organization_id', 'status'] },
    { name: MEMORY_PROPOSAL_LINKS, indexes: [] },
  ],
  eventTypes: new Set([
    'MemoryProposalCaptured',
    'MemoryProposalApproved',
    'MemoryProposalRejected',
    'SubjectErased',
  ]),
  async apply(recorded: RecordedEvent, context: ProjectionContext) {
    if (recorded.type === 'SubjectErased') {
      const erased = erasedMemoryItem(recorded);
      if (erased) await forgetProposals(context, String(erased.memory_item_id));
      const conversation = erasedConversation(recorded);
      if (conversation !== null) await forgetProposals(context, conversationLink(conversation));
      return;
    }
    const event = recorded as unknown as MemoryProposalEvent;
    const at = recorded.metadata.occurred_at;
    const id = String(event.data.proposal_id);
    if (event.type === 'MemoryProposalCaptured') {
      // Every item whose erasure erases the proposal's text (sealing-policy.ts): its target, the cited span's item
      // and, for a correction, every item the corrected reply cited.
      const named = new Set([
        event.data.target_memory_item_id,
        event.data.cited?.memory_item_id ?? null,
        ...(event.data.correction?.cited_memory_item_ids ?? []),
      ]);
      for (const item of named) if (item !== null) await link(context, String(item), event.data.proposal_id);
      const conversation = event.data.correction?.conversation_id;
      if (conversation !== undefined) {
        await link(context, conversationLink(conversation), event.data.proposal_id);
      }
      const { connector_id: _connector, client_key: _key, ...data } = event.data;
      const doc: MemoryProposalDocument = {
        id,
        ...data,
        correction: data.correction ?? null,
        cited: data.cited ?? null,
        approval_policy: null,
        status: 'captured',
        memory_item_id: null,
        reviewed_by: null,
        review_reason: null,
        created_at: at,
        reviewed_at: null,
      };
      context.put(MEMORY_PROPOSALS, doc);
      return;
    }
    const current = await context.get<MemoryProposalDocument>(MEMORY_PROPOSALS, id);
    if (!current) return;
    if (event.type === 'MemoryProposalApproved' && current.target_memory_item_id === null) {
      await link(context, String(event.data.memory_item_id), event.data.proposal_id);
    }
    context.put(
      MEMORY_PROPOSALS,
      event.type === 'MemoryProposalApproved'
        ? {
            ...current,
            status: 'approved',
            memory_item_id: event.data.memory_item_id,
            approval_policy: event.data.policy ?? null,
            reviewed_by: event.data.approved_by,
            reviewed_at: at,
          }
        : {
            ...current,
            status: 'rejected',
            reviewed_by: event.data.rejected_by,
            review_reason: event.data.reason,
            reviewed_at: at,
          },
    );
  },
};

const conversationLink = (conversationId: number): string => `conversation-${conversationId}`;

async function link(context: ProjectionContext, id: string, proposalId: number): Promise<void> {
  const links = await context.get<ProposalLinksDocument>(MEMORY_PROPOSAL_LINKS, id);
  const proposal_ids = links?.proposal_ids ?? [];
  if (!proposal_ids.includes(proposalId)) {
    context.put(MEMORY_PROPOSAL_LINKS, { id, proposal_ids: [...proposal_ids, proposalId] });
  }
}

/** An erased item's (or conversation's) proposals keep their ids and review state; their text reads as the sealed fields now do. */
async function forgetProposals(context: ProjectionContext, linkId: string): Promise<void> {
  const links = await context.get<ProposalLinksDocument>(MEMORY_PROPOSAL_LINKS, linkId);
  for (const proposalId of links?.proposal_ids ?? []) {
    const current = await context.get<MemoryProposalDocument>(MEMORY_PROPOSALS, String(proposalId));
    // What the proposal's sealed fields read as once a key is gone: the same as a rebuild then writes.
    if (current)
      context.put(MEMORY_PROPOSALS, { ...current, ...SEALING_RULES.MemoryProposalCaptured.erased });
  }
}

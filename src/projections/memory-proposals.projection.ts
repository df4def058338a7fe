import type {
  CitedSpan,
  MemoryProposalApproved,
  MemoryProposalEvent,
  ProposalCorrection,
  ProposedPolicy,
} from '../events/memory/proposal.events';
import type { RecordedEvent } from '../infrastructure/event-store/event-store.port';
import type { Projection, ProjectionContext } from './projection';

export const MEMORY_PROPOSALS = 'memory_proposals';

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
  version: 3,
  collections: [{ name: MEMORY_PROPOSALS, indexes: ['organization_id', 'status'] }],
  eventTypes: new Set(['MemoryProposalCaptured', 'MemoryProposalApproved', 'MemoryProposalRejected']),
  async apply(recorded: RecordedEvent, context: ProjectionContext) {
    const event = recorded as unknown as MemoryProposalEvent;
    const at = recorded.metadata.occurred_at;
    const id = String(event.data.proposal_id);
    if (event.type === 'MemoryProposalCaptured') {
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

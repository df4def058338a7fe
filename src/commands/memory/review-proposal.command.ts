import type { AppliedPolicy, ProposedPolicy } from '../../events/memory/proposal.events';
import type { CommandContext } from '../shared/command-context';
import type { ApprovalOptions } from './approval-plan';

export type ReviewDecision =
  ({ type: 'approve' } & Partial<ApprovalOptions>) | { type: 'reject'; reason: string | null };

export class ReviewProposalCommand {
  constructor(
    readonly organizationId: number,
    readonly proposalId: number,
    readonly decision: ReviewDecision,
    readonly context: CommandContext,
  ) {}
}

export interface ReviewProposalResult {
  proposal_id: number;
  status: 'approved' | 'rejected';
  /** The item the approval created or revised. */
  memory_item_id: number | null;
  changed: boolean;
  /** Approved: the policy proposed, the one applied, and the operator's override (null when none was given). */
  policy?: {
    proposed: ProposedPolicy;
    applied: AppliedPolicy;
    override: AppliedPolicy['audience'] | null;
  } | null;
  /** An approved correction: the revision it replaced text in, the revision it appended, and if it re-based. */
  correction?: { base_revision: number | null; revision: number; rebased: boolean } | null;
}

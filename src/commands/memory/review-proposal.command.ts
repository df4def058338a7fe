import type { CommandContext } from '../shared/command-context';

export class ReviewProposalCommand {
  constructor(
    readonly organizationId: number,
    readonly proposalId: number,
    readonly decision: { type: 'approve' } | { type: 'reject'; reason: string | null },
    readonly context: CommandContext,
  ) {}
}

export interface ReviewProposalResult {
  proposal_id: number;
  status: 'approved' | 'rejected';
  /** The item the approval created or revised. */
  memory_item_id: number | null;
  changed: boolean;
}

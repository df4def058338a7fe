import { ConflictError, NotFoundError } from '../../common/errors';
import type {
  MemoryProposalApproved,
  MemoryProposalCaptured,
  MemoryProposalEvent,
} from '../../events/memory/proposal.events';
import type { Decider } from '../shared/decider';
import { planApproval, type ApprovalOptions, type CorrectionTarget } from './approval-plan';

export type ProposalStatus = 'captured' | 'approved' | 'rejected';

export type ProposalCommand =
  | { type: 'CaptureProposal'; proposal: MemoryProposalCaptured['data'] }
  | {
      type: 'ApproveProposal';
      organization_id: number;
      memory_item_id: number;
      approved_by: string;
      options: ApprovalOptions;
      /** A correction's target as it stands (null for a new item, or when the item does not exist). */
      target: CorrectionTarget | null;
    }
  | {
      type: 'RejectProposal';
      organization_id: number;
      rejected_by: string;
      reason: string | null;
      /** For a correction: whether a revision applied it (an approval never applied can still be rejected). */
      target_applied: boolean | null;
    };

export type ProposalState =
  | { exists: false }
  | {
      exists: true;
      proposal: MemoryProposalCaptured['data'];
      status: ProposalStatus;
      memory_item_id: number | null;
      /** The approval as recorded (null until approved). */
      approval: MemoryProposalApproved['data'] | null;
    };

/**
 * Captured → approved (creating or revising an item) or rejected; both are final, and history stays, except that a
 * correction recorded as approved but never applied (an older build approved it for an archived item) can be
 * rejected. Approval is decided by planApproval: a correction whose item moved on, was archived, or no longer holds
 * the cited text records nothing.
 */
export const proposalDecider: Decider<ProposalCommand, ProposalState, MemoryProposalEvent> = {
  initialState: () => ({ exists: false }),
  evolve(state, event) {
    if (event.type === 'MemoryProposalCaptured') {
      return { exists: true, proposal: event.data, status: 'captured', memory_item_id: null, approval: null };
    }
    if (!state.exists) return state;
    return event.type === 'MemoryProposalApproved'
      ? { ...state, status: 'approved', memory_item_id: event.data.memory_item_id, approval: event.data }
      : { ...state, status: 'rejected' };
  },
  decide(command, state) {
    if (command.type === 'CaptureProposal') {
      if (state.exists)
        throw new ConflictError('proposal_exists', `proposal ${command.proposal.proposal_id} exists`);
      return [{ type: 'MemoryProposalCaptured', data: command.proposal }];
    }
    if (!state.exists || state.proposal.organization_id !== command.organization_id) {
      throw new NotFoundError('proposal not found', 'proposal_not_found');
    }
    const ids = { proposal_id: state.proposal.proposal_id, organization_id: state.proposal.organization_id };
    if (command.type === 'ApproveProposal') {
      if (state.status === 'approved') return [];
      if (state.status === 'rejected')
        throw new ConflictError('proposal_rejected', 'a rejected proposal cannot be approved');
      const plan = planApproval(state.proposal, command.target, command.options);
      const correction = plan.correction
        ? { base_revision: plan.correction.base_revision, rebased: plan.correction.rebased }
        : {};
      return [
        {
          type: 'MemoryProposalApproved',
          data: {
            ...ids,
            memory_item_id: command.memory_item_id,
            approved_by: command.approved_by,
            policy: plan.policy,
            ...correction,
          },
        },
      ];
    }
    if (state.status === 'rejected') return [];
    const neverApplied = state.proposal.target_memory_item_id !== null && command.target_applied === false;
    if (state.status === 'approved' && !neverApplied)
      throw new ConflictError('proposal_approved', 'an approved proposal cannot be rejected');
    return [
      {
        type: 'MemoryProposalRejected',
        data: { ...ids, rejected_by: command.rejected_by, reason: command.reason },
      },
    ];
  },
};

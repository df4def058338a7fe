import { ConflictError, NotFoundError } from '../../common/errors';
import type { MemoryProposalCaptured, MemoryProposalEvent } from '../../events/memory/proposal.events';
import type { Decider } from '../shared/decider';

export type ProposalStatus = 'captured' | 'approved' | 'rejected';

export type ProposalCommand =
  | { type: 'CaptureProposal'; proposal: MemoryProposalCaptured['data'] }
  | { type: 'ApproveProposal'; organization_id: number; memory_item_id: number; approved_by: string }
  | { type: 'RejectProposal'; organization_id: number; rejected_by: string; reason: string | null };

export type ProposalState =
  | { exists: false }
  | {
      exists: true;
      proposal: MemoryProposalCaptured['data'];
      status: ProposalStatus;
      memory_item_id: number | null;
    };

/** Captured → approved (creating or revising an item) or rejected; both are final, and history stays. */
export const proposalDecider: Decider<ProposalCommand, ProposalState, MemoryProposalEvent> = {
  initialState: () => ({ exists: false }),
  evolve(state, event) {
    if (event.type === 'MemoryProposalCaptured') {
      return { exists: true, proposal: event.data, status: 'captured', memory_item_id: null };
    }
    if (!state.exists) return state;
    return event.type === 'MemoryProposalApproved'
      ? { ...state, status: 'approved', memory_item_id: event.data.memory_item_id }
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
      return [
        {
          type: 'MemoryProposalApproved',
          data: { ...ids, memory_item_id: command.memory_item_id, approved_by: command.approved_by },
        },
      ];
    }
    if (state.status === 'rejected') return [];
    if (state.status === 'approved')
      throw new ConflictError('proposal_approved', 'an approved proposal cannot be rejected');
    return [
      {
        type: 'MemoryProposalRejected',
        data: { ...ids, rejected_by: command.rejected_by, reason: command.reason },
      },
    ];
  },
};

import { Injectable } from '@nestjs/common';
import { AppError, NotFoundError } from '../../common/errors';
import { streams } from '../../events/domain-event';
import type { MemoryProposalApproved, MemoryProposalCaptured } from '../../events/memory/proposal.events';
import { StreamCommandExecutor } from '../shared/stream-command-executor';
import { planApproval, type ApprovalOptions, type ApprovalPlan } from './approval-plan';
import { lineDiff, loadCorrectionTarget } from './correction-target';
import { ErasedMemoryItems } from './erased-memory-items';
import { proposalDecider, type ProposalStatus } from './proposal.decider';

export interface ProposalShow {
  proposal: Omit<MemoryProposalCaptured['data'], 'connector_id' | 'client_key'> & {
    status: ProposalStatus;
    approval: MemoryProposalApproved['data'] | null;
  };
  /** A correction's item now, and the revision the reply cited (null for a new item). */
  target: {
    memory_item_id: number;
    cited_revision: number | null;
    current_revision: number | null;
    archived: boolean;
    /** Erased (memory:erase): the correction can only be rejected. */
    erased: boolean;
  } | null;
  /** Old text (the cited span; '' for a new item), new text, and the item's lines approval would change. */
  diff: { old_text: string | null; new_text: string; lines: string[] };
  /** What approving now (with these options) would do, decided as the real approval decides it. */
  approval: {
    options: ApprovalOptions;
    policy: ApprovalPlan['policy'] | null;
    correction: { base_revision: number; rebased: boolean } | null;
    /** Why approval would be refused (null: it would be recorded). */
    refused: { code: string; message: string } | null;
  } | null;
}

/** `proposals:show`: a proposal, its diff, and what approval would apply (planApproval, no append). */
@Injectable()
export class ProposalApprovalPreviewer {
  constructor(
    private readonly executor: StreamCommandExecutor,
    private readonly erasures: ErasedMemoryItems,
  ) {}

  async show(organizationId: number, proposalId: number, options: ApprovalOptions): Promise<ProposalShow> {
    const { state } = await this.executor.load(streams.memoryProposal(proposalId), proposalDecider);
    if (!state.exists || state.proposal.organization_id !== organizationId) {
      throw new NotFoundError('proposal not found', 'proposal_not_found');
    }
    const { connector_id: _connector, client_key: _key, ...proposal } = state.proposal;
    const targetId = proposal.target_memory_item_id;
    const loaded =
      targetId === null
        ? null
        : await loadCorrectionTarget(this.executor, this.erasures, targetId, proposalId);
    let plan: ApprovalPlan | null = null;
    let refused: { code: string; message: string } | null = null;
    if (state.status === 'captured') {
      try {
        plan = planApproval(state.proposal, loaded?.snapshot ?? null, options);
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        refused = { code: error.code, message: error.message };
      }
    }
    const cited = proposal.cited ?? null;
    const current = loaded?.item?.content ?? null;
    const after = plan?.correction?.content ?? null;
    return {
      proposal: {
        ...proposal,
        cited: proposal.cited ?? null,
        status: state.status,
        approval: state.approval,
      },
      target:
        targetId === null
          ? null
          : {
              memory_item_id: targetId,
              cited_revision: cited?.revision ?? null,
              current_revision: loaded?.item?.revision ?? null,
              archived: loaded?.item?.archived ?? false,
              erased: loaded?.snapshot?.erased ?? false,
            },
      diff: {
        old_text: targetId === null ? '' : (cited?.span ?? null),
        new_text: proposal.content,
        lines:
          targetId === null
            ? lineDiff('', proposal.content).filter((line) => line !== '- ')
            : current !== null && after !== null
              ? lineDiff(current, after)
              : [],
      },
      approval:
        state.status === 'captured'
          ? {
              options,
              policy: plan?.policy ?? null,
              correction: plan?.correction
                ? { base_revision: plan.correction.base_revision, rebased: plan.correction.rebased }
                : null,
              refused,
            }
          : null,
    };
  }
}

import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { InternalError } from '../../common/errors';
import { IdGenerator } from '../../common/id-generator';
import { streams } from '../../events/domain-event';
import type { AppliedPolicy, MemoryProposalCaptured } from '../../events/memory/proposal.events';
import type { CommandContext } from '../shared/command-context';
import { StreamCommandExecutor } from '../shared/stream-command-executor';
import { planApproval, type ApprovalOptions } from './approval-plan';
import { loadCorrectionTarget, type LoadedTarget } from './correction-target';
import { ErasedMemoryItems } from './erased-memory-items';
import { inferFormat, isDerivedSummary } from './correction-span';
import { MemoryItemWriter } from './memory-item-writer';
import { proposalDecider } from './proposal.decider';
import { ReviewProposalCommand, type ReviewProposalResult } from './review-proposal.command';

/**
 * Operator review. A new item: the approval is recorded with the item id first, then the item is created with the
 * approved policy; running it again completes an interrupted approval. A correction: planApproval decides first
 * (target archived, revised since the cited revision, cited text gone: nothing is recorded), then the approval is
 * recorded with the revision it applies to, then a revision replacing only the cited text (every other field kept)
 * is appended once; run again, it completes an interrupted approval.
 */
@CommandHandler(ReviewProposalCommand)
export class ReviewProposalHandler implements ICommandHandler<ReviewProposalCommand, ReviewProposalResult> {
  constructor(
    private readonly executor: StreamCommandExecutor,
    private readonly writer: MemoryItemWriter,
    private readonly ids: IdGenerator,
    private readonly erasures: ErasedMemoryItems,
  ) {}

  async execute(command: ReviewProposalCommand): Promise<ReviewProposalResult> {
    const { organizationId, proposalId, decision, context } = command;
    const stream = streams.memoryProposal(proposalId);
    const loaded = await this.executor.load(stream, proposalDecider);
    const proposal = loaded.state.exists ? loaded.state.proposal : null;
    const target =
      proposal?.target_memory_item_id != null
        ? await loadCorrectionTarget(this.executor, this.erasures, proposal.target_memory_item_id, proposalId)
        : null;
    if (decision.type === 'reject') {
      const result = await this.executor.execute(
        stream,
        proposalDecider,
        {
          type: 'RejectProposal',
          organization_id: organizationId,
          rejected_by: context.actor,
          reason: decision.reason,
          target_applied: target?.snapshot?.applied ?? null,
        },
        context,
        { organizationId },
      );
      return {
        proposal_id: proposalId,
        status: 'rejected',
        memory_item_id: null,
        changed: result.events.length > 0,
      };
    }
    const options: ApprovalOptions = {
      rebase: decision.rebase ?? false,
      audience: decision.audience ?? null,
    };
    const memoryItemId =
      proposal?.target_memory_item_id ??
      (loaded.state.exists && loaded.state.memory_item_id !== null
        ? loaded.state.memory_item_id
        : await this.ids.next('memory_item'));
    const approved = await this.executor.execute(
      stream,
      proposalDecider,
      {
        type: 'ApproveProposal',
        organization_id: organizationId,
        memory_item_id: memoryItemId,
        approved_by: context.actor,
        options,
        target: target?.snapshot ?? null,
      },
      context,
      { organizationId, waitFor: [] },
    );
    const state = approved.state;
    if (!state.exists || state.memory_item_id === null) throw new InternalError('approval not recorded');
    const approval = state.approval;
    const result = {
      proposal_id: proposalId,
      status: 'approved' as const,
      memory_item_id: state.memory_item_id,
      changed: approved.events.length > 0,
      policy: approval?.policy ?? null,
    };
    if (state.proposal.target_memory_item_id === null) {
      // Approved before and its item since erased (with the proposal's text): nothing to create again.
      await this.erasures.requireNotErased(organizationId, state.memory_item_id);
      await this.createItem(state.proposal, state.memory_item_id, approval?.policy?.applied, context);
      return { ...result, correction: null };
    }
    if (!target) throw new InternalError('correction target not loaded');
    // Approved before and its item since erased: nothing to apply again, the same refusal as a first approval.
    await this.erasures.requireNotErased(organizationId, state.proposal.target_memory_item_id);
    const applied = await this.applyCorrection(
      state.proposal,
      target,
      approval?.base_revision,
      options,
      context,
    );
    return {
      ...result,
      changed: result.changed || applied.appended,
      correction: {
        base_revision: approval?.base_revision ?? null,
        revision: applied.revision,
        rebased: approval?.rebased ?? false,
      },
    };
  }

  /**
   * Appends the revision replacing the cited text (once: a revision that applied it already appends nothing).
   * An approval interrupted before its revision completes now, at the revision it recorded, or re-based with
   * --rebase when the item moved on meanwhile. Returns the item's revision and whether this run appended it.
   */
  private async applyCorrection(
    proposal: MemoryProposalCaptured['data'],
    target: LoadedTarget,
    baseRevision: number | undefined,
    options: ApprovalOptions,
    context: CommandContext,
  ): Promise<{ revision: number; appended: boolean }> {
    const { item, snapshot } = target;
    if (!item || !snapshot) throw new InternalError('correction target vanished');
    if (snapshot.applied) return { revision: item.revision, appended: false };
    const plan = planApproval(proposal, snapshot, {
      audience: null,
      rebase: options.rebase || snapshot.revision === baseRevision,
    });
    if (!plan.correction || plan.correction.content === null)
      return { revision: item.revision, appended: false };
    const content = await this.writer.content({
      title: item.title,
      content: plan.correction.content,
      format: inferFormat(item.content, item.chunks),
      // A summary given with the item is kept; one derived from its content is derived again.
      summary: isDerivedSummary(item.summary, item.title, item.chunks) ? null : item.summary,
      source_date: item.source_date,
      effective_at: item.effective_at,
      expires_at: item.expires_at,
    });
    const revised = await this.writer.revise(item.organization_id, item.memory_item_id, content, context, {
      proposal_id: proposal.proposal_id,
      base_revision: plan.correction.base_revision,
    });
    return { revision: revised.revision, appended: revised.revision !== item.revision };
  }

  /** A new item under the id the approval recorded. Run again, its creation is recognized and nothing appended. */
  private async createItem(
    proposal: MemoryProposalCaptured['data'],
    memoryItemId: number,
    applied: AppliedPolicy | undefined,
    context: CommandContext,
  ): Promise<void> {
    const content = await this.writer.content({
      title: proposal.title,
      content: proposal.content,
      format: 'markdown',
      summary: null,
      source_date: null,
      effective_at: null,
      expires_at: null,
    });
    await this.writer.create(
      {
        organization_id: proposal.organization_id,
        memory_item_id: memoryItemId,
        memory_source_id: proposal.memory_source_id,
      },
      content,
      {
        type: proposal.proposed_type,
        // An approval recorded by an older build (no policy) made a customer-safe item; its re-run still does.
        audience: applied?.audience ?? 'customer_safe',
        authority_level: applied?.authority_level ?? 'approved_source',
        visibility: 'organization_internal',
        owner_client_key: null,
        source_uri: proposal.source_uri,
        proposal_id: proposal.proposal_id,
      },
      context,
    );
  }
}

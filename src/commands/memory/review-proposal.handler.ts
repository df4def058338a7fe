import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { InternalError } from '../../common/errors';
import { IdGenerator } from '../../common/id-generator';
import { streams } from '../../events/domain-event';
import { StreamCommandExecutor } from '../shared/stream-command-executor';
import { MemoryItemWriter } from './memory-item-writer';
import { proposalDecider } from './proposal.decider';
import { ReviewProposalCommand, type ReviewProposalResult } from './review-proposal.command';

/**
 * Operator review. Approval records the decision with the item id first, then creates (or revises) a
 * customer-safe, approved_source item from the proposal; running it again completes an interrupted approval.
 */
@CommandHandler(ReviewProposalCommand)
export class ReviewProposalHandler implements ICommandHandler<ReviewProposalCommand, ReviewProposalResult> {
  constructor(
    private readonly executor: StreamCommandExecutor,
    private readonly writer: MemoryItemWriter,
    private readonly ids: IdGenerator,
  ) {}

  async execute(command: ReviewProposalCommand): Promise<ReviewProposalResult> {
    const { organizationId, proposalId, decision, context } = command;
    const stream = streams.memoryProposal(proposalId);
    const actor = context.actor;
    if (decision.type === 'reject') {
      const result = await this.executor.execute(
        stream,
        proposalDecider,
        {
          type: 'RejectProposal',
          organization_id: organizationId,
          rejected_by: actor,
          reason: decision.reason,
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
    const loaded = await this.executor.load(stream, proposalDecider);
    const target =
      loaded.state.exists && loaded.state.proposal.target_memory_item_id !== null
        ? loaded.state.proposal.target_memory_item_id
        : await this.ids.next('memory_item');
    const approved = await this.executor.execute(
      stream,
      proposalDecider,
      {
        type: 'ApproveProposal',
        organization_id: organizationId,
        memory_item_id: target,
        approved_by: actor,
      },
      context,
      { organizationId, waitFor: [] },
    );
    const state = approved.state;
    if (!state.exists || state.memory_item_id === null) throw new InternalError('approval not recorded');
    const { proposal } = state;
    const content = await this.writer.content({
      title: proposal.title,
      content: proposal.content,
      format: 'markdown',
      summary: null,
      source_date: null,
      effective_at: null,
      expires_at: null,
    });
    if (proposal.target_memory_item_id !== null) {
      // A correction revises its target once: running the approval again never undoes a later revision.
      await this.writer.revise(organizationId, state.memory_item_id, content, context, proposalId);
    } else {
      // A new item, under the id the approval recorded. Run again, its creation is recognized and nothing is
      // appended, even if an operator revised the item since (memoryItemDecider).
      await this.writer.create(
        {
          organization_id: organizationId,
          memory_item_id: state.memory_item_id,
          memory_source_id: proposal.memory_source_id,
        },
        content,
        {
          type: proposal.proposed_type,
          audience: 'customer_safe',
          authority_level: 'approved_source',
          visibility: 'organization_internal',
          owner_client_key: null,
          source_uri: proposal.source_uri,
        },
        context,
      );
    }
    return {
      proposal_id: proposalId,
      status: 'approved',
      memory_item_id: state.memory_item_id,
      changed: approved.events.length > 0,
    };
  }
}

import { Injectable } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { Command, Option } from 'nest-commander';
import { ReviewProposalCommand, type ReviewProposalResult } from '../commands/memory/review-proposal.command';
import { operatorContext } from '../commands/shared/command-context';
import type { MemoryProposalDocument } from '../projections/memory-proposals.projection';
import { ListProposalsQuery } from '../queries/memory/list-proposals.query';
import { expectArgs, oneOf, parseId } from './cli-args';
import { JsonCommand } from './json-command';

const STATUSES = ['captured', 'approved', 'rejected'] as const;

@Command({
  name: 'proposals:list',
  arguments: '<ORG>',
  description: 'Memory proposals of an organization, newest first',
})
export class ProposalsListCommand extends JsonCommand {
  constructor(private readonly queries: QueryBus) {
    super();
  }

  protected async execute(
    params: string[],
    options: { status?: (typeof STATUSES)[number] },
  ): Promise<object> {
    expectArgs(params, 1, 'proposals:list ORG [--status captured|approved|rejected]');
    const proposals = await this.queries.execute<ListProposalsQuery, MemoryProposalDocument[]>(
      new ListProposalsQuery(parseId(params[0], 'ORG'), options.status ?? null),
    );
    return { proposals: proposals.map(({ id: _id, ...proposal }) => proposal) };
  }

  @Option({ flags: '--status <status>', description: 'captured, approved or rejected' })
  parseStatus(value: string): (typeof STATUSES)[number] {
    return oneOf(value, STATUSES, '--status');
  }
}

/** Decorated so its subclasses inherit the constructor's injection metadata. */
@Injectable()
abstract class ReviewCommand extends JsonCommand {
  constructor(private readonly commands: CommandBus) {
    super();
  }

  protected review(
    params: string[],
    decision: ReviewProposalCommand['decision'],
  ): Promise<ReviewProposalResult> {
    return this.commands.execute(
      new ReviewProposalCommand(
        parseId(params[0], 'ORG'),
        parseId(params[1], 'ID'),
        decision,
        operatorContext(),
      ),
    );
  }
}

@Command({
  name: 'proposals:approve',
  arguments: '<ORG> <ID>',
  description: 'Approve: creates (or revises) a customer-safe, approved_source memory item',
})
export class ProposalsApproveCommand extends ReviewCommand {
  protected execute(params: string[]): Promise<object> {
    expectArgs(params, 2, 'proposals:approve ORG ID');
    return this.review(params, { type: 'approve' });
  }
}

@Command({
  name: 'proposals:reject',
  arguments: '<ORG> <ID>',
  description: 'Reject a proposal (its history stays)',
})
export class ProposalsRejectCommand extends ReviewCommand {
  protected execute(params: string[], options: { reason?: string }): Promise<object> {
    expectArgs(params, 2, 'proposals:reject ORG ID [--reason TEXT]');
    return this.review(params, { type: 'reject', reason: options.reason ?? null });
  }

  @Option({ flags: '--reason <text>', description: 'why (kept in the history)' })
  parseReason(value: string): string {
    return value;
  }
}

import { Injectable } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { Command, Option } from 'nest-commander';
import type { ApprovalOptions } from '../commands/memory/approval-plan';
import { ProposalApprovalPreviewer } from '../commands/memory/preview-proposal-approval';
import { ReviewProposalCommand, type ReviewProposalResult } from '../commands/memory/review-proposal.command';
import { ValidationFailedError } from '../common/errors';
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

type ApproveFlags = { rebase?: boolean; customerSafe?: boolean; internal?: boolean };

/** The approval options of the flags (--customer-safe and --internal exclude each other). */
function approvalOptions(flags: ApproveFlags): ApprovalOptions {
  if (flags.customerSafe && flags.internal) {
    throw new ValidationFailedError('give --customer-safe or --internal, not both', [
      { field: 'audience', message: 'one of --customer-safe, --internal' },
    ]);
  }
  const audience = flags.customerSafe ? 'customer_safe' : flags.internal ? 'internal' : null;
  return { rebase: flags.rebase === true, audience };
}

/** The flags shared by proposals:show and proposals:approve. */
@Injectable()
abstract class ApprovalFlagsCommand extends JsonCommand {
  @Option({
    flags: '--rebase',
    description:
      'a correction of an item revised since the reply: replace the cited text in the current revision',
  })
  parseRebase(): boolean {
    return true;
  }

  @Option({ flags: '--customer-safe', description: 'a new item: customer_safe, whatever the proposal says' })
  parseCustomerSafe(): boolean {
    return true;
  }

  @Option({ flags: '--internal', description: 'a new item: internal, whatever the proposal says' })
  parseInternal(): boolean {
    return true;
  }
}

@Command({
  name: 'proposals:show',
  arguments: '<ORG> <ID>',
  description:
    'A proposal with its diff (old text, new text, changed lines) and what approval would apply: policy, ' +
    'revision, or why it would be refused (takes the flags of proposals:approve)',
})
export class ProposalsShowCommand extends ApprovalFlagsCommand {
  constructor(private readonly previewer: ProposalApprovalPreviewer) {
    super();
  }

  protected execute(params: string[], options: ApproveFlags): Promise<object> {
    expectArgs(params, 2, 'proposals:show ORG ID [--rebase] [--customer-safe|--internal]');
    return this.previewer.show(parseId(params[0], 'ORG'), parseId(params[1], 'ID'), approvalOptions(options));
  }
}

@Command({
  name: 'proposals:approve',
  arguments: '<ORG> <ID>',
  description:
    "Approve. A new item gets the proposal's audience (customer_safe_candidate) unless --customer-safe or " +
    '--internal says otherwise; a correction revises only the text the reply cited (--rebase: in the current ' +
    'revision); the result names the policy applied',
})
export class ProposalsApproveCommand extends ApprovalFlagsCommand {
  constructor(private readonly commands: CommandBus) {
    super();
  }

  protected execute(params: string[], options: ApproveFlags): Promise<object> {
    expectArgs(params, 2, 'proposals:approve ORG ID [--rebase] [--customer-safe|--internal]');
    return this.commands.execute<ReviewProposalCommand, ReviewProposalResult>(
      new ReviewProposalCommand(
        parseId(params[0], 'ORG'),
        parseId(params[1], 'ID'),
        { type: 'approve', ...approvalOptions(options) },
        operatorContext(),
      ),
    );
  }
}

@Command({
  name: 'proposals:reject',
  arguments: '<ORG> <ID>',
  description: 'Reject a proposal (its history stays)',
})
export class ProposalsRejectCommand extends JsonCommand {
  constructor(private readonly commands: CommandBus) {
    super();
  }

  protected execute(params: string[], options: { reason?: string }): Promise<object> {
    expectArgs(params, 2, 'proposals:reject ORG ID [--reason TEXT]');
    return this.commands.execute<ReviewProposalCommand, ReviewProposalResult>(
      new ReviewProposalCommand(
        parseId(params[0], 'ORG'),
        parseId(params[1], 'ID'),
        { type: 'reject', reason: options.reason ?? null },
        operatorContext(),
      ),
    );
  }

  @Option({ flags: '--reason <text>', description: 'why (kept in the history)' })
  parseReason(value: string): string {
    return value;
  }
}

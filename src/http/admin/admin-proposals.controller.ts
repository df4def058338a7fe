import { Body, Controller, Get, HttpCode, Param, Post, Query, UseGuards } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { ProposalApprovalPreviewer } from '../../commands/memory/preview-proposal-approval';
import {
  ReviewProposalCommand,
  type ReviewProposalResult,
} from '../../commands/memory/review-proposal.command';
import type { OperatorPrincipal } from '../../commands/operator-tokens/operator-tokens';
import { OrganizationLoader } from '../../commands/shared/organization-loader';
import type { MemoryProposalDocument } from '../../projections/memory-proposals.projection';
import { ListProposalsQuery } from '../../queries/memory/list-proposals.query';
import { RequestId } from '../request-id.param';
import { ApproveProposalBody, RejectProposalBody } from './admin.dto';
import { pathId, QueryReader } from './admin-params';
import { adminContext, CurrentOperator, OperatorAuthGuard, RequireScope } from './operator-auth.guard';

const orgId = (value: string) => pathId(value, 'organization', 'organization_not_found');
const proposalId = (value: string) => pathId(value, 'proposal', 'proposal_not_found');
const STATUSES = ['captured', 'approved', 'rejected'] as const;
const AUDIENCES = ['customer_safe', 'internal'] as const;

/** Admin API: the review queue (the same commands and preview as `proposals:*`). */
@ApiTags('admin')
@ApiBearerAuth('operator')
@Controller('admin/api/v1/organizations/:organization_id/proposals')
@UseGuards(OperatorAuthGuard)
export class AdminProposalsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly previewer: ProposalApprovalPreviewer,
    private readonly organizations: OrganizationLoader,
  ) {}

  @Get()
  @RequireScope('read')
  @ApiOperation({ summary: 'Proposals, newest first (at most 1,000).' })
  @ApiQuery({ name: 'status', required: false, enum: STATUSES })
  async list(@Param('organization_id') id: string, @Query() query: Record<string, unknown>): Promise<object> {
    const read = new QueryReader(query);
    const status = read.oneOf('status', STATUSES);
    read.done();
    const organizationId = orgId(id);
    await this.organizations.require(organizationId);
    const proposals = await this.queries.execute<ListProposalsQuery, MemoryProposalDocument[]>(
      new ListProposalsQuery(organizationId, status),
    );
    return { ok: true, proposals: proposals.map(({ id: _id, ...proposal }) => proposal) };
  }

  @Get(':proposal_id')
  @RequireScope('read')
  @ApiOperation({
    summary:
      'A proposal, its diff against the revision the reply cited, and what approval with these options would do.',
  })
  @ApiQuery({ name: 'rebase', required: false, enum: ['true', 'false'] })
  @ApiQuery({ name: 'audience', required: false, enum: AUDIENCES })
  async show(
    @Param('organization_id') id: string,
    @Param('proposal_id') proposal: string,
    @Query() query: Record<string, unknown>,
  ): Promise<object> {
    const read = new QueryReader(query);
    const options = { rebase: read.boolean('rebase'), audience: read.oneOf('audience', AUDIENCES) };
    read.done();
    return { ok: true, ...(await this.previewer.show(orgId(id), proposalId(proposal), options)) };
  }

  @Post(':proposal_id/approve')
  @HttpCode(200)
  @RequireScope('proposals:review')
  @ApiOperation({ summary: 'Approve; the answer names the policy applied.' })
  async approve(
    @CurrentOperator() operator: OperatorPrincipal,
    @Param('organization_id') id: string,
    @Param('proposal_id') proposal: string,
    @Body() body: ApproveProposalBody,
    @RequestId() requestId?: string,
  ): Promise<object> {
    const result = await this.commands.execute<ReviewProposalCommand, ReviewProposalResult>(
      new ReviewProposalCommand(
        orgId(id),
        proposalId(proposal),
        { type: 'approve', rebase: body.rebase ?? false, audience: body.audience ?? null },
        adminContext(operator, requestId),
      ),
    );
    return { ok: true, ...result };
  }

  @Post(':proposal_id/reject')
  @HttpCode(200)
  @RequireScope('proposals:review')
  @ApiOperation({ summary: 'Reject (the history stays).' })
  async reject(
    @CurrentOperator() operator: OperatorPrincipal,
    @Param('organization_id') id: string,
    @Param('proposal_id') proposal: string,
    @Body() body: RejectProposalBody,
    @RequestId() requestId?: string,
  ): Promise<object> {
    const result = await this.commands.execute<ReviewProposalCommand, ReviewProposalResult>(
      new ReviewProposalCommand(
        orgId(id),
        proposalId(proposal),
        { type: 'reject', reason: body.reason ?? null },
        adminContext(operator, requestId),
      ),
    );
    return { ok: true, ...result };
  }
}

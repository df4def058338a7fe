import {
  Body,
  Controller,
  Get,
  HttpCode,
  Param,
  Post,
  Query,
  Req,
  Res,
  UseFilters,
  UseGuards,
} from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { ReplyAuditor } from '../../audit/reply-auditor';
import {
  ChangeConnectorCommand,
  type ChangeConnectorResult,
} from '../../commands/connectors/change-connector.command';
import { ProposalApprovalPreviewer } from '../../commands/memory/preview-proposal-approval';
import {
  ReviewProposalCommand,
  type ReviewProposalResult,
} from '../../commands/memory/review-proposal.command';
import type { MemoryProposalDocument } from '../../projections/memory-proposals.projection';
import type { ReplyView } from '../../projections/replies.projection';
import { AdminViews } from '../../queries/admin/admin-views';
import { ListProposalsQuery } from '../../queries/memory/list-proposals.query';
import { GetReplyViewQuery, ListReplyViewsQuery } from '../../queries/replies/reply-views.query';
import { parseMemoryFilters, pathId, QueryReader } from '../admin/admin-params';
import { adminContext, RequireScope } from '../admin/operator-auth.guard';
import { ConsoleAuthGuard, type ConsoleRequest } from './console-auth.guard';
import { ConsoleErrorFilter } from './console-error.filter';
import { CONSOLE_PATH, csrfToken } from './console-session';
import { connectorsPage } from './pages/connector-pages';
import { CONSOLE_HEADERS, type ConsoleFrame } from './pages/console-layout';
import { memoryItemPage, memoryListPage } from './pages/memory-pages';
import { organizationsPage } from './pages/organization-pages';
import { proposalPage, proposalQueuePage } from './pages/proposal-pages';
import { replyListPage, replyPage } from './pages/reply-pages';

const orgId = (value: string) => pathId(value, 'organization', 'organization_not_found');
type Form = Record<string, unknown>;

/**
 * The reviewer's console (docs/admin.md#console): server-rendered pages over the admin API's commands and views,
 * usable without JavaScript. GETs need `read`; each form the scope of the admin route it mirrors.
 */
@ApiExcludeController()
@Controller('admin/console')
@UseGuards(ConsoleAuthGuard)
@UseFilters(ConsoleErrorFilter)
export class ConsolePagesController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly views: AdminViews,
    private readonly previewer: ProposalApprovalPreviewer,
    private readonly auditor: ReplyAuditor,
  ) {}

  @Get()
  @RequireScope('read')
  async home(@Req() request: ConsoleRequest, @Res() reply: FastifyReply): Promise<void> {
    send(reply, organizationsPage(await this.frame(request, null), await this.views.organizations()));
  }

  @Get('orgs/:org/proposals')
  @RequireScope('read')
  async proposals(
    @Param('org') org: string,
    @Query() query: Record<string, unknown>,
    @Req() request: ConsoleRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const read = new QueryReader(query);
    const status = read.oneOf('status', ['captured', 'approved', 'rejected'] as const) ?? 'captured';
    read.done();
    const frame = await this.frame(request, orgId(org));
    const proposals = await this.queries.execute<ListProposalsQuery, MemoryProposalDocument[]>(
      new ListProposalsQuery(orgId(org), status),
    );
    send(reply, proposalQueuePage(frame, orgId(org), status, proposals));
  }

  @Get('orgs/:org/proposals/:id')
  @RequireScope('read')
  async proposal(
    @Param('org') org: string,
    @Param('id') id: string,
    @Query() query: Record<string, unknown>,
    @Req() request: ConsoleRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const read = new QueryReader(query);
    const notice = read.text('done', 100);
    read.done();
    const frame = await this.frame(request, orgId(org));
    const shown = await this.previewer.show(orgId(org), pathId(id, 'proposal', 'proposal_not_found'), {
      rebase: false,
      audience: null,
    });
    send(reply, proposalPage(frame, orgId(org), shown, notice));
  }

  @Post('orgs/:org/proposals/:id/approve')
  @HttpCode(303)
  @RequireScope('proposals:review')
  async approve(
    @Param('org') org: string,
    @Param('id') id: string,
    @Body() form: Form,
    @Req() request: ConsoleRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const audience = form.audience === 'customer_safe' || form.audience === 'internal' ? form.audience : null;
    const result = await this.review(org, id, request, {
      type: 'approve',
      rebase: form.rebase === 'true',
      audience,
    });
    const applied = result.policy ? ` as ${result.policy.applied.audience}` : '';
    redirect(reply, org, id, `approved${applied}`);
  }

  @Post('orgs/:org/proposals/:id/reject')
  @HttpCode(303)
  @RequireScope('proposals:review')
  async reject(
    @Param('org') org: string,
    @Param('id') id: string,
    @Body() form: Form,
    @Req() request: ConsoleRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const reason = typeof form.reason === 'string' && form.reason.trim() !== '' ? form.reason.trim() : null;
    await this.review(org, id, request, { type: 'reject', reason });
    redirect(reply, org, id, 'rejected');
  }

  @Get('orgs/:org/memory')
  @RequireScope('read')
  async memory(
    @Param('org') org: string,
    @Query() query: Record<string, unknown>,
    @Req() request: ConsoleRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const filters = parseMemoryFilters(query);
    const frame = await this.frame(request, orgId(org));
    send(
      reply,
      memoryListPage(frame, orgId(org), filters, await this.views.memoryItems(orgId(org), filters)),
    );
  }

  @Get('orgs/:org/memory/:id')
  @RequireScope('read')
  async memoryItem(
    @Param('org') org: string,
    @Param('id') id: string,
    @Req() request: ConsoleRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const frame = await this.frame(request, orgId(org));
    const detail = await this.views.memoryItem(
      orgId(org),
      pathId(id, 'memory item', 'memory_item_not_found'),
    );
    send(reply, memoryItemPage(frame, detail));
  }

  @Get('orgs/:org/replies')
  @RequireScope('read')
  async replies(
    @Param('org') org: string,
    @Req() request: ConsoleRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const frame = await this.frame(request, orgId(org));
    const replies = await this.queries.execute<ListReplyViewsQuery, ReplyView[]>(
      new ListReplyViewsQuery(orgId(org), null, null, 100),
    );
    send(reply, replyListPage(frame, orgId(org), replies));
  }

  @Get('orgs/:org/replies/:id')
  @RequireScope('read')
  async replyView(
    @Param('org') org: string,
    @Param('id') id: string,
    @Req() request: ConsoleRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const frame = await this.frame(request, orgId(org));
    const replyId = pathId(id, 'reply', 'reply_not_found');
    const found = await this.queries.execute<GetReplyViewQuery, ReplyView>(
      new GetReplyViewQuery(orgId(org), { reply_id: replyId }),
    );
    send(reply, replyPage(frame, orgId(org), found, await this.auditor.reply(orgId(org), replyId)));
  }

  @Get('orgs/:org/connectors')
  @RequireScope('read')
  async connectors(
    @Param('org') org: string,
    @Req() request: ConsoleRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const frame = await this.frame(request, orgId(org));
    send(reply, connectorsPage(frame, orgId(org), await this.views.connectors(orgId(org)), null));
  }

  /** Answers with the connectors page showing the new token once (not a redirect: the token is never in a URL). */
  @Post('orgs/:org/connectors/:id/rotate-token')
  @HttpCode(200)
  @RequireScope('connectors:write')
  async rotate(
    @Param('org') org: string,
    @Param('id') id: string,
    @Req() request: ConsoleRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const result = await this.changeConnector(org, id, request, 'RotateToken');
    const frame = await this.frame(request, orgId(org));
    const connectors = await this.views.connectors(orgId(org));
    send(
      reply,
      connectorsPage(frame, orgId(org), connectors, {
        connector_id: result.connector_id,
        token: result.token ?? '',
      }),
    );
  }

  @Post('orgs/:org/connectors/:id/revoke-token')
  @HttpCode(303)
  @RequireScope('connectors:write')
  async revoke(
    @Param('org') org: string,
    @Param('id') id: string,
    @Req() request: ConsoleRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    await this.changeConnector(org, id, request, 'RevokeToken');
    void reply
      .status(303)
      .headers(CONSOLE_HEADERS)
      .header('location', `${CONSOLE_PATH}/orgs/${orgId(org)}/connectors`)
      .send();
  }

  private review(
    org: string,
    id: string,
    request: ConsoleRequest,
    decision: ReviewProposalCommand['decision'],
  ): Promise<ReviewProposalResult> {
    return this.commands.execute<ReviewProposalCommand, ReviewProposalResult>(
      new ReviewProposalCommand(
        orgId(org),
        pathId(id, 'proposal', 'proposal_not_found'),
        decision,
        adminContext(request.operator!, request.id),
      ),
    );
  }

  private changeConnector(
    org: string,
    id: string,
    request: ConsoleRequest,
    type: 'RotateToken' | 'RevokeToken',
  ): Promise<ChangeConnectorResult> {
    return this.commands.execute<ChangeConnectorCommand, ChangeConnectorResult>(
      new ChangeConnectorCommand(
        orgId(org),
        pathId(id, 'connector', 'connector_not_found'),
        { type },
        adminContext(request.operator!, request.id),
      ),
    );
  }

  private async frame(request: ConsoleRequest, organizationId: number | null): Promise<ConsoleFrame> {
    const organization = organizationId === null ? null : await this.views.organization(organizationId);
    return {
      operator: request.operator!.name,
      csrf: csrfToken(request.consoleToken!),
      organization: organization && {
        organization_id: organization.organization_id,
        name: organization.name,
      },
    };
  }
}

function send(reply: FastifyReply, page: string): void {
  void reply.headers(CONSOLE_HEADERS).type('text/html; charset=utf-8').send(page);
}

/** Post/redirect/get: back to the proposal, with what was done. */
function redirect(reply: FastifyReply, org: string, id: string, done: string): void {
  const location = `${CONSOLE_PATH}/orgs/${orgId(org)}/proposals/${id}?done=${encodeURIComponent(done)}`;
  void reply.status(303).headers(CONSOLE_HEADERS).header('location', location).send();
}

import { Controller, Get, Param, Query, UseGuards } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { ReplyAuditor } from '../../audit/reply-auditor';
import { OrganizationLoader } from '../../commands/shared/organization-loader';
import type { ReplyView } from '../../projections/replies.projection';
import { GetReplyViewQuery, ListReplyViewsQuery } from '../../queries/replies/reply-views.query';
import { pathId, QueryReader } from './admin-params';
import { OperatorAuthGuard, RequireScope } from './operator-auth.guard';

const orgId = (value: string) => pathId(value, 'organization', 'organization_not_found');
const replyId = (value: string) => pathId(value, 'reply', 'reply_not_found');
const STATUSES = ['pending', 'completed', 'failed'] as const;
const view = ({ id: _id, ...reply }: ReplyView): Omit<ReplyView, 'id'> => reply;

/** Admin API: reply receipt views and their audit. */
@ApiTags('admin')
@ApiBearerAuth('operator')
@Controller('admin/api/v1/organizations/:organization_id/replies')
@UseGuards(OperatorAuthGuard)
export class AdminRepliesController {
  constructor(
    private readonly queries: QueryBus,
    private readonly auditor: ReplyAuditor,
    private readonly organizations: OrganizationLoader,
  ) {}

  @Get()
  @RequireScope('read')
  @ApiOperation({ summary: 'Reply receipt views, newest first.' })
  @ApiQuery({ name: 'status', required: false, enum: STATUSES })
  @ApiQuery({ name: 'limit', required: false, description: '1 to 1000 (default 100)' })
  async list(@Param('organization_id') id: string, @Query() query: Record<string, unknown>): Promise<object> {
    const read = new QueryReader(query);
    const status = read.oneOf('status', STATUSES);
    const limit = read.integer('limit', 1, 1000) ?? 100;
    read.done();
    const organizationId = orgId(id);
    await this.organizations.require(organizationId);
    const replies = await this.queries.execute<ListReplyViewsQuery, ReplyView[]>(
      new ListReplyViewsQuery(organizationId, status, null, limit),
    );
    return { ok: true, replies: replies.map(view) };
  }

  @Get(':reply_id')
  @RequireScope('read')
  @ApiOperation({ summary: 'One reply receipt view: answer, evidence, quotes, outcome.' })
  async show(@Param('organization_id') id: string, @Param('reply_id') reply: string): Promise<object> {
    const found = await this.queries.execute<GetReplyViewQuery, ReplyView>(
      new GetReplyViewQuery(orgId(id), { reply_id: replyId(reply) }),
    );
    return { ok: true, reply: view(found) };
  }

  @Get(':reply_id/audit')
  @RequireScope('read')
  @ApiOperation({
    summary:
      'Every stream bound to the reply with its chain check (audit:reply); verified false names what broke.',
  })
  async audit(@Param('organization_id') id: string, @Param('reply_id') reply: string): Promise<object> {
    const audit = await this.auditor.reply(orgId(id), replyId(reply));
    return { ok: true, reply: view(audit.reply), verified: audit.verified, streams: audit.streams };
  }
}

import { Body, Controller, Get, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  CreateChatbotCommand,
  type CreateChatbotResult,
} from '../../commands/chatbots/create-chatbot.command';
import {
  SetChatbotPausedCommand,
  type SetChatbotPausedResult,
} from '../../commands/chatbots/set-chatbot-paused.command';
import type { OperatorPrincipal } from '../../commands/operator-tokens/operator-tokens';
import {
  ChangeOrganizationCommand,
  type ChangeOrganizationResult,
} from '../../commands/organizations/change-organization.command';
import {
  RegisterOrganizationCommand,
  type RegisterOrganizationResult,
} from '../../commands/organizations/register-organization.command';
import { AdminViews } from '../../queries/admin/admin-views';
import { RequestId } from '../request-id.param';
import { CreateChatbotBody, CreateOrganizationBody, SetPlanLimitBody } from './admin.dto';
import { pathId } from './admin-params';
import { adminContext, CurrentOperator, OperatorAuthGuard, RequireScope } from './operator-auth.guard';

const orgId = (value: string) => pathId(value, 'organization', 'organization_not_found');

/** Admin API: organizations and their chatbots (docs/admin.md). */
@ApiTags('admin')
@ApiBearerAuth('operator')
@Controller('admin/api/v1/organizations')
@UseGuards(OperatorAuthGuard)
export class AdminOrganizationsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly views: AdminViews,
  ) {}

  @Get()
  @RequireScope('read')
  @ApiOperation({ summary: 'Every organization, oldest first.' })
  async list(): Promise<object> {
    return { ok: true, organizations: await this.views.organizations() };
  }

  @Post()
  @HttpCode(200)
  @RequireScope('organizations:write')
  @ApiOperation({ summary: 'Register an organization.' })
  async create(
    @CurrentOperator() operator: OperatorPrincipal,
    @Body() body: CreateOrganizationBody,
    @RequestId() requestId?: string,
  ): Promise<object> {
    const created = await this.commands.execute<RegisterOrganizationCommand, RegisterOrganizationResult>(
      new RegisterOrganizationCommand(
        body.name,
        body.slug ?? null,
        body.website_url ?? null,
        adminContext(operator, requestId),
      ),
    );
    return { ok: true, organization: await this.views.organization(created.organization_id) };
  }

  @Get(':organization_id')
  @RequireScope('read')
  @ApiOperation({ summary: 'One organization with its chatbots and connectors.' })
  async show(@Param('organization_id') id: string): Promise<object> {
    const organizationId = orgId(id);
    return {
      ok: true,
      organization: await this.views.organization(organizationId),
      chatbots: await this.views.chatbots(organizationId),
      connectors: await this.views.connectors(organizationId),
    };
  }

  @Post(':organization_id/pause-agents')
  @HttpCode(200)
  @RequireScope('organizations:write')
  @ApiOperation({ summary: 'Pause every assistant of the organization.' })
  pause(
    @CurrentOperator() operator: OperatorPrincipal,
    @Param('organization_id') id: string,
    @RequestId() requestId?: string,
  ): Promise<object> {
    return this.change(orgId(id), { type: 'PauseAgentActivity' }, operator, requestId);
  }

  @Post(':organization_id/resume-agents')
  @HttpCode(200)
  @RequireScope('organizations:write')
  @ApiOperation({ summary: 'Resume the assistants of the organization.' })
  resume(
    @CurrentOperator() operator: OperatorPrincipal,
    @Param('organization_id') id: string,
    @RequestId() requestId?: string,
  ): Promise<object> {
    return this.change(orgId(id), { type: 'ResumeAgentActivity' }, operator, requestId);
  }

  @Post(':organization_id/plan-limit')
  @HttpCode(200)
  @RequireScope('organizations:write')
  @ApiOperation({ summary: 'Set the monthly reply limit.' })
  planLimit(
    @CurrentOperator() operator: OperatorPrincipal,
    @Param('organization_id') id: string,
    @Body() body: SetPlanLimitBody,
    @RequestId() requestId?: string,
  ): Promise<object> {
    return this.change(
      orgId(id),
      { type: 'SetPlanLimit', monthly_replies: body.monthly_replies },
      operator,
      requestId,
    );
  }

  @Get(':organization_id/chatbots')
  @RequireScope('read')
  @ApiOperation({ summary: 'The chatbots of an organization.' })
  async chatbots(@Param('organization_id') id: string): Promise<object> {
    return { ok: true, chatbots: await this.views.chatbots(orgId(id)) };
  }

  @Post(':organization_id/chatbots')
  @HttpCode(200)
  @RequireScope('organizations:write')
  @ApiOperation({ summary: 'Create a chatbot (an assistant).' })
  async createChatbot(
    @CurrentOperator() operator: OperatorPrincipal,
    @Param('organization_id') id: string,
    @Body() body: CreateChatbotBody,
    @RequestId() requestId?: string,
  ): Promise<object> {
    const organizationId = orgId(id);
    const created = await this.commands.execute<CreateChatbotCommand, CreateChatbotResult>(
      new CreateChatbotCommand(
        organizationId,
        body.name,
        body.allowed_domain ?? null,
        adminContext(operator, requestId),
      ),
    );
    const chatbots = await this.views.chatbots(organizationId);
    return { ok: true, chatbot: chatbots.find((c) => c.chatbot_id === created.chatbot_id) };
  }

  @Post(':organization_id/chatbots/:chatbot_id/pause')
  @HttpCode(200)
  @RequireScope('organizations:write')
  @ApiOperation({ summary: 'Pause a chatbot.' })
  pauseChatbot(
    @CurrentOperator() operator: OperatorPrincipal,
    @Param('organization_id') id: string,
    @Param('chatbot_id') chatbot: string,
    @RequestId() requestId?: string,
  ): Promise<object> {
    return this.setPaused(orgId(id), chatbot, true, operator, requestId);
  }

  @Post(':organization_id/chatbots/:chatbot_id/resume')
  @HttpCode(200)
  @RequireScope('organizations:write')
  @ApiOperation({ summary: 'Resume a chatbot.' })
  resumeChatbot(
    @CurrentOperator() operator: OperatorPrincipal,
    @Param('organization_id') id: string,
    @Param('chatbot_id') chatbot: string,
    @RequestId() requestId?: string,
  ): Promise<object> {
    return this.setPaused(orgId(id), chatbot, false, operator, requestId);
  }

  private async change(
    organizationId: number,
    change: ChangeOrganizationCommand['change'],
    operator: OperatorPrincipal,
    requestId?: string,
  ): Promise<object> {
    const result = await this.commands.execute<ChangeOrganizationCommand, ChangeOrganizationResult>(
      new ChangeOrganizationCommand(organizationId, change, adminContext(operator, requestId)),
    );
    return { ok: true, ...result };
  }

  private async setPaused(
    organizationId: number,
    chatbot: string,
    paused: boolean,
    operator: OperatorPrincipal,
    requestId?: string,
  ): Promise<object> {
    const result = await this.commands.execute<SetChatbotPausedCommand, SetChatbotPausedResult>(
      new SetChatbotPausedCommand(
        organizationId,
        pathId(chatbot, 'chatbot', 'chatbot_not_found'),
        paused,
        adminContext(operator, requestId),
      ),
    );
    return { ok: true, ...result };
  }
}

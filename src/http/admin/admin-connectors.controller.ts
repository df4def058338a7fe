import { Body, Controller, Get, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  ChangeConnectorCommand,
  type ChangeConnectorResult,
  type ConnectorChange,
} from '../../commands/connectors/change-connector.command';
import {
  RegisterConnectorCommand,
  type RegisterConnectorResult,
} from '../../commands/connectors/register-connector.command';
import type { OperatorPrincipal } from '../../commands/operator-tokens/operator-tokens';
import { AdminViews } from '../../queries/admin/admin-views';
import { RequestId } from '../request-id.param';
import { CreateConnectorBody } from './admin.dto';
import { pathId } from './admin-params';
import { adminContext, CurrentOperator, OperatorAuthGuard, RequireScope } from './operator-auth.guard';

const orgId = (value: string) => pathId(value, 'organization', 'organization_not_found');
const connectorId = (value: string) => pathId(value, 'connector', 'connector_not_found');

/** Admin API: connectors and their tokens (a token is shown once, in the answer that issues it). */
@ApiTags('admin')
@ApiBearerAuth('operator')
@Controller('admin/api/v1/organizations/:organization_id/connectors')
@UseGuards(OperatorAuthGuard)
export class AdminConnectorsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly views: AdminViews,
  ) {}

  @Get()
  @RequireScope('read')
  @ApiOperation({ summary: 'The connectors of an organization (never a token or its digest).' })
  async list(@Param('organization_id') id: string): Promise<object> {
    return { ok: true, connectors: await this.views.connectors(orgId(id)) };
  }

  @Post()
  @HttpCode(200)
  @RequireScope('connectors:write')
  @ApiOperation({ summary: 'Register a connector; its token is in this answer only.' })
  async create(
    @CurrentOperator() operator: OperatorPrincipal,
    @Param('organization_id') id: string,
    @Body() body: CreateConnectorBody,
    @RequestId() requestId?: string,
  ): Promise<object> {
    const organizationId = orgId(id);
    const created = await this.commands.execute<RegisterConnectorCommand, RegisterConnectorResult>(
      new RegisterConnectorCommand(
        organizationId,
        body.name,
        body.capabilities,
        body.grounding_policy ?? 'strict',
        adminContext(operator, requestId),
      ),
    );
    return {
      ok: true,
      connector: await this.views.connector(organizationId, created.connector_id),
      token: created.token,
    };
  }

  @Get(':connector_id')
  @RequireScope('read')
  @ApiOperation({ summary: 'One connector.' })
  async show(
    @Param('organization_id') id: string,
    @Param('connector_id') connector: string,
  ): Promise<object> {
    return { ok: true, connector: await this.views.connector(orgId(id), connectorId(connector)) };
  }

  @Post(':connector_id/rotate-token')
  @HttpCode(200)
  @RequireScope('connectors:write')
  @ApiOperation({
    summary: 'Issue a new token; the old one stops at once. The token is in this answer only.',
  })
  async rotate(
    @CurrentOperator() operator: OperatorPrincipal,
    @Param('organization_id') id: string,
    @Param('connector_id') connector: string,
    @RequestId() requestId?: string,
  ): Promise<object> {
    const result = await this.change(id, connector, { type: 'RotateToken' }, operator, requestId);
    return {
      ok: true,
      connector_id: result.connector_id,
      token_id: result.active_token_id,
      token: result.token,
    };
  }

  @Post(':connector_id/revoke-token')
  @HttpCode(200)
  @RequireScope('connectors:write')
  @ApiOperation({ summary: 'Revoke the active token (the connector stays, with no token).' })
  async revoke(
    @CurrentOperator() operator: OperatorPrincipal,
    @Param('organization_id') id: string,
    @Param('connector_id') connector: string,
    @RequestId() requestId?: string,
  ): Promise<object> {
    const result = await this.change(id, connector, { type: 'RevokeToken' }, operator, requestId);
    return {
      ok: true,
      connector_id: result.connector_id,
      revoked_token_id: result.revoked_token_id ?? null,
      changed: result.changed,
    };
  }

  private change(
    organization: string,
    connector: string,
    change: ConnectorChange,
    operator: OperatorPrincipal,
    requestId?: string,
  ): Promise<ChangeConnectorResult> {
    return this.commands.execute<ChangeConnectorCommand, ChangeConnectorResult>(
      new ChangeConnectorCommand(
        orgId(organization),
        connectorId(connector),
        change,
        adminContext(operator, requestId),
      ),
    );
  }
}

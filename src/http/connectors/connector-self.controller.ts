import { Controller, Get, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ConnectorAuthGuard, CurrentConnector, RateLimited } from '../auth/connector-auth.guard';
import type { ConnectorPrincipal } from '../auth/connector-principal';
import { ConnectorSelfResponse } from './connector-self.dto';

/** Lets a connector check its token: who it is and what it may do. Needs a valid token, no capability. */
@ApiTags('connector')
@ApiBearerAuth()
@Controller('app/api/tool-connectors/v1')
@UseGuards(ConnectorAuthGuard)
export class ConnectorSelfController {
  @Get('connector')
  @RateLimited('search')
  @ApiOperation({ summary: 'The connector this token belongs to, its organization and capabilities.' })
  @ApiOkResponse({ type: ConnectorSelfResponse })
  self(@CurrentConnector() connector: ConnectorPrincipal): ConnectorSelfResponse {
    return {
      ok: true,
      connector_id: connector.connector_id,
      organization_id: connector.organization_id,
      name: connector.name,
      client_key: connector.client_key,
      capabilities: connector.capabilities,
      grounding_policy: connector.grounding_policy,
    };
  }
}

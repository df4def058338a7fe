import { Body, Controller, Get, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ProposeMemoryCommand, type ProposeMemoryResult } from '../../commands/memory/propose-memory.command';
import { recalledSearch, RecordRecallTraceCommand } from '../../commands/memory/record-recall-trace.command';
import { ReportUsageCommand } from '../../commands/memory/report-usage.command';
import { SaveMemoryCommand, type SaveMemoryResult } from '../../commands/memory/save-memory.command';
import { EraseSubjectCommand, type EraseSubjectResult } from '../../commands/erasure/erase-subject.command';
import { connectorContext } from '../../commands/shared/command-context';
import { RequestId } from '../request-id.param';
import { NotFoundError } from '../../common/errors';
import { GetMemoryItemQuery } from '../../queries/memory/get-memory-item.query';
import { SearchMemoryQuery, type SearchMemoryResult } from '../../queries/memory/search-memory.query';
import {
  ConnectorAuthGuard,
  CurrentConnector,
  RateLimited,
  RequireCapabilities,
} from '../auth/connector-auth.guard';
import type { ConnectorPrincipal } from '../auth/connector-principal';
import {
  ForgetMemoryBody,
  ProposeMemoryBody,
  ReportUsageBody,
  SaveMemoryBody,
  SearchMemoryBody,
} from './memory.dto';
import { searchResponse } from './search-response';

/** Spec §4.1–4.5: connector memory. The organization always comes from the token. */
@ApiTags('memory')
@ApiBearerAuth()
@Controller('app/api/tool-connectors/v1/memory')
@UseGuards(ConnectorAuthGuard)
export class MemoryController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Post('search')
  @HttpCode(200)
  @RequireCapabilities('memory_search')
  @RateLimited('search')
  @ApiOperation({
    summary: 'Search organization memory; records a recall trace (report usage against its trace_id).',
  })
  async search(
    @CurrentConnector() connector: ConnectorPrincipal,
    @Body() body: SearchMemoryBody,
    @RequestId() requestId?: string,
  ): Promise<object> {
    const visibility = body.visibility ?? null;
    const limit = body.limit ?? 10;
    const withContext = body.include_context_package ?? false;
    const found = await this.queries.execute<SearchMemoryQuery, SearchMemoryResult>(
      // Excerpts only feed the context package.
      new SearchMemoryQuery(connector, body.query, limit, visibility, withContext),
    );
    const traceId = await this.commands.execute<RecordRecallTraceCommand, number>(
      new RecordRecallTraceCommand(
        connector,
        recalledSearch(body.query, visibility, limit, found, 'search'),
        connectorContext(connector, requestId),
      ),
    );
    return searchResponse(traceId, body.query, found, withContext);
  }

  @Get('items/:memory_item_id')
  @RequireCapabilities('memory_search')
  @RateLimited('search')
  @ApiOperation({
    summary: 'Fetch one memory item with its content (404 when unknown or not visible to this connector).',
  })
  item(
    @CurrentConnector() connector: ConnectorPrincipal,
    @Param('memory_item_id') id: string,
  ): Promise<object> {
    if (!/^[1-9]\d{0,15}$/.test(id) || !Number.isSafeInteger(Number(id))) {
      throw new NotFoundError('memory item not found', 'memory_item_not_found');
    }
    return this.queries.execute(new GetMemoryItemQuery(connector, Number(id)));
  }

  @Post('items/:memory_item_id/forget')
  @HttpCode(200)
  @RequireCapabilities('memory_save')
  @RateLimited('writes')
  @ApiOperation({
    summary:
      'Erase an item this connector saved itself (its data key destroyed: search, vectors and reply views drop it); ' +
      'again is 200 with changed: false; any other item is 404.',
  })
  async forget(
    @CurrentConnector() connector: ConnectorPrincipal,
    @Param('memory_item_id') id: string,
    @Body() body: ForgetMemoryBody,
    @RequestId() requestId?: string,
  ): Promise<object> {
    if (!/^[1-9]\d{0,15}$/.test(id) || !Number.isSafeInteger(Number(id))) {
      throw new NotFoundError('memory item not found', 'memory_item_not_found');
    }
    const erased = await this.commands.execute<EraseSubjectCommand, EraseSubjectResult>(
      new EraseSubjectCommand(
        {
          organization_id: connector.organization_id,
          kind: 'memory_item',
          id: Number(id),
          reason: body.reason ?? null,
          connector_id: connector.connector_id,
        },
        connectorContext(connector, requestId),
      ),
    );
    return {
      ok: true,
      memory_item_id: erased.id,
      erased: true,
      changed: erased.changed,
      erased_at: erased.erased_at,
    };
  }

  @Post('save')
  @HttpCode(200)
  @RequireCapabilities('memory_save')
  @RateLimited('writes')
  @ApiOperation({
    summary: 'Save an internal tool note (never customer-facing); unsafe content is refused with 422.',
  })
  save(
    @CurrentConnector() connector: ConnectorPrincipal,
    @Body() body: SaveMemoryBody,
    @RequestId() requestId?: string,
  ): Promise<SaveMemoryResult> {
    return this.commands.execute(
      new SaveMemoryCommand(
        connector,
        {
          kind: body.kind,
          title: body.title,
          content: body.content,
          summary: body.summary ?? null,
          visibility: body.visibility ?? 'tool_private',
          idempotency_key: body.idempotency_key ?? null,
          source_uri: body.source_uri ?? null,
        },
        connectorContext(connector, requestId),
      ),
    );
  }

  @Post('proposals')
  @HttpCode(200)
  @RequireCapabilities('memory_propose')
  @RateLimited('writes')
  @ApiOperation({
    summary: 'Propose a customer-facing fact; it affects nothing until an operator approves it.',
  })
  propose(
    @CurrentConnector() connector: ConnectorPrincipal,
    @Body() body: ProposeMemoryBody,
    @RequestId() requestId?: string,
  ): Promise<ProposeMemoryResult> {
    return this.commands.execute(
      new ProposeMemoryCommand(
        connector,
        {
          title: body.title,
          content: body.content,
          proposed_type: body.proposed_type ?? 'fact',
          source_uri: body.source_uri ?? null,
          proposed_policy: {
            review_required: body.proposed_policy?.review_required ?? true,
            customer_safe_candidate: body.proposed_policy?.customer_safe_candidate ?? false,
            ...(body.proposed_policy?.authority_role
              ? { authority_role: body.proposed_policy.authority_role }
              : {}),
          },
        },
        connectorContext(connector, requestId),
      ),
    );
  }

  @Post('usage')
  @HttpCode(200)
  @RequireCapabilities('memory_search')
  @RateLimited('writes')
  @ApiOperation({
    summary: 'Report which results of a search helped (only for the same connector and trace).',
  })
  usage(
    @CurrentConnector() connector: ConnectorPrincipal,
    @Body() body: ReportUsageBody,
    @RequestId() requestId?: string,
  ): Promise<{ ok: true }> {
    return this.commands.execute(
      new ReportUsageCommand(
        connector,
        body.trace_id,
        body.used_item_ids ?? [],
        body.ignored_item_ids ?? [],
        connectorContext(connector, requestId),
      ),
    );
  }
}

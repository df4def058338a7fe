import { Body, Controller, Get, HttpCode, Param, Post, Query, UseGuards } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import {
  ArchiveMemoryItemCommand,
  type ArchiveMemoryItemResult,
} from '../../commands/memory/archive-memory-item.command';
import { EraseSubjectCommand, type EraseSubjectResult } from '../../commands/erasure/erase-subject.command';
import type { DocumentInput } from '../../commands/memory/ingest-document.command';
import type { OperatorPrincipal } from '../../commands/operator-tokens/operator-tokens';
import { NotFoundError } from '../../common/errors';
import { AdminViews } from '../../queries/admin/admin-views';
import { RequestId } from '../request-id.param';
import { EraseMemoryItemBody, IngestDocumentsBody, type DocumentBody } from './admin.dto';
import { parseMemoryFilters, pathId } from './admin-params';
import { DocumentIngestions } from './document-ingestions';
import { adminContext, CurrentOperator, OperatorAuthGuard, RequireScope } from './operator-auth.guard';

const orgId = (value: string) => pathId(value, 'organization', 'organization_not_found');
const itemId = (value: string) => pathId(value, 'memory item', 'memory_item_not_found');

/**
 * Admin API: an organization's memory, every item as stored (archived and tool-private ones too), and document
 * uploads, and erasure of an item (`POST …/memory/items/{id}/erase`, the command the CLI's `memory:erase` runs).
 */
@ApiTags('admin')
@ApiBearerAuth('operator')
@Controller('admin/api/v1/organizations/:organization_id')
@UseGuards(OperatorAuthGuard)
export class AdminMemoryController {
  constructor(
    private readonly commands: CommandBus,
    private readonly views: AdminViews,
    private readonly ingestions: DocumentIngestions,
  ) {}

  @Get('memory/items')
  @RequireScope('read')
  @ApiOperation({ summary: 'Memory items, newest first, filtered; follow next_cursor for the next page.' })
  @ApiQuery({ name: 'lifecycle_status', required: false, enum: ['active', 'archived'] })
  @ApiQuery({ name: 'audience', required: false, enum: ['customer_safe', 'internal'] })
  @ApiQuery({ name: 'source_type', required: false, enum: ['document', 'tool_work_log', 'memory_proposal'] })
  @ApiQuery({ name: 'q', required: false, description: 'case-insensitive substring of the title' })
  @ApiQuery({ name: 'cursor', required: false, description: 'the next_cursor of the previous page' })
  @ApiQuery({ name: 'limit', required: false, description: '1 to 100 (default 20)' })
  async items(
    @Param('organization_id') id: string,
    @Query() query: Record<string, unknown>,
  ): Promise<object> {
    return { ok: true, ...(await this.views.memoryItems(orgId(id), parseMemoryFilters(query))) };
  }

  @Get('memory/items/:memory_item_id')
  @RequireScope('read')
  @ApiOperation({ summary: 'One memory item with its content and every revision, newest first.' })
  async item(@Param('organization_id') id: string, @Param('memory_item_id') item: string): Promise<object> {
    return { ok: true, ...(await this.views.memoryItem(orgId(id), itemId(item))) };
  }

  @Post('memory/items/:memory_item_id/archive')
  @HttpCode(200)
  @RequireScope('memory:write')
  @ApiOperation({ summary: 'Archive a memory item (it leaves search; its history stays).' })
  async archive(
    @CurrentOperator() operator: OperatorPrincipal,
    @Param('organization_id') id: string,
    @Param('memory_item_id') item: string,
    @RequestId() requestId?: string,
  ): Promise<object> {
    const result = await this.commands.execute<ArchiveMemoryItemCommand, ArchiveMemoryItemResult>(
      new ArchiveMemoryItemCommand(orgId(id), itemId(item), adminContext(operator, requestId)),
    );
    return { ok: true, ...result };
  }

  @Post('memory/items/:memory_item_id/erase')
  @HttpCode(200)
  @RequireScope('memory:write')
  @ApiOperation({
    summary:
      'Erase a memory item: its data keys are destroyed (crypto-shredding), every text of it becomes unreadable, the read models drop it, and an erasure event records who and why (docs/audit.md).',
  })
  async erase(
    @CurrentOperator() operator: OperatorPrincipal,
    @Param('organization_id') id: string,
    @Param('memory_item_id') item: string,
    @Body() body: EraseMemoryItemBody,
    @RequestId() requestId?: string,
  ): Promise<object> {
    const input = {
      organization_id: orgId(id),
      kind: 'memory_item' as const,
      id: itemId(item),
      reason: body.reason ?? null,
    };
    const result = await this.commands.execute<EraseSubjectCommand, EraseSubjectResult>(
      new EraseSubjectCommand(input, adminContext(operator, requestId)),
    );
    return { ok: true, ...result };
  }

  @Post('documents')
  @HttpCode(202)
  @RequireScope('memory:write')
  @ApiOperation({
    summary:
      'Upload documents to ingest (as memory:ingest does); answers at once with an ingestion to follow for progress.',
  })
  async ingest(
    @CurrentOperator() operator: OperatorPrincipal,
    @Param('organization_id') id: string,
    @Body() body: IngestDocumentsBody,
    @RequestId() requestId?: string,
  ): Promise<object> {
    const ingestion = await this.ingestions.start(
      orgId(id),
      body.documents.map(documentInput),
      body.allow_flags ?? [],
      adminContext(operator, requestId),
    );
    return { ok: true, ingestion };
  }

  @Get('documents/ingestions/:ingestion_id')
  @RequireScope('read')
  @ApiOperation({ summary: "An ingestion's progress: done of total, and each document's outcome." })
  ingestion(@Param('organization_id') id: string, @Param('ingestion_id') ingestionId: string): object {
    if (!/^ing_[0-9a-f-]{36}$/.test(ingestionId)) {
      throw new NotFoundError('ingestion not found', 'ingestion_not_found');
    }
    return { ok: true, ingestion: this.ingestions.get(orgId(id), ingestionId) };
  }
}

function documentInput(body: DocumentBody): DocumentInput {
  return {
    document_key: `admin:${body.document_key}`,
    title: body.title,
    content: body.content,
    format: body.format ?? 'markdown',
    type: 'document',
    audience: body.audience ?? 'internal',
    authority_level: body.authority_level ?? 'reference',
    source_label: body.title,
    source_uri: body.source_uri ?? null,
    source_date: null,
    effective_at: null,
    expires_at: null,
    summary: null,
  };
}

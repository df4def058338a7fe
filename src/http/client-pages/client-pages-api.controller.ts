import { Controller, Get, Param, Query, Req, Res, UseGuards } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiParam, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  GetClientPageQuery,
  type GetClientPageResult,
} from '../../queries/client-pages/get-client-page.query';
import {
  ListClientPagesQuery,
  type ListClientPagesResult,
} from '../../queries/client-pages/list-client-pages.query';
import { parseDirectoryQuery } from './directory-query';
import { sendCacheable } from './http-cache';
import { PublicRateLimitGuard } from './public-rate-limit.guard';

const JSON_TYPE = 'application/json; charset=utf-8';

/** Spec §4.8, §4.9: the public client directory as JSON. No token; only published pages. */
@ApiTags('public client pages')
@Controller('api/cairn-client-pages')
@UseGuards(PublicRateLimitGuard)
export class ClientPagesApiController {
  constructor(private readonly queries: QueryBus) {}

  @Get()
  @ApiOperation({
    summary:
      'List published client pages. Defaults: sort=name, per_page=12, page=1; 422 when out of bounds. ' +
      'Cacheable (ETag, Last-Modified, 304); rate limited per client IP (429 + Retry-After).',
  })
  @ApiQuery({
    name: 'q',
    required: false,
    description: 'case- and accent-insensitive substring',
    schema: { type: 'string', maxLength: 200, example: 'bakery' },
  })
  @ApiQuery({
    name: 'sort',
    required: false,
    schema: { type: 'string', enum: ['name', 'newest', 'updated'] },
  })
  @ApiQuery({
    name: 'per_page',
    required: false,
    schema: { type: 'integer', minimum: 1, maximum: 24, default: 12 },
  })
  @ApiQuery({
    name: 'page',
    required: false,
    schema: { type: 'integer', minimum: 1, maximum: 10000, default: 1 },
  })
  async list(
    @Query() query: Record<string, unknown>,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const result = await this.queries.execute<ListClientPagesQuery, ListClientPagesResult>(
      new ListClientPagesQuery(parseDirectoryQuery(query)),
    );
    sendCacheable(request, reply, {
      body: JSON.stringify(result.view),
      contentType: JSON_TYPE,
      lastModified: result.last_modified,
    });
  }

  @Get(':slug')
  @ApiOperation({
    summary: 'One published client page; 404 not_found for unknown, unpublished or hidden slugs alike.',
  })
  @ApiParam({
    name: 'slug',
    description: 'a published page’s slug',
    schema: { type: 'string', minLength: 1, example: 'acme-bakery' },
  })
  async detail(
    @Param('slug') slug: string,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const result = await this.queries.execute<GetClientPageQuery, GetClientPageResult>(
      new GetClientPageQuery(slug),
    );
    sendCacheable(request, reply, {
      body: JSON.stringify(result.view),
      contentType: JSON_TYPE,
      lastModified: result.last_modified,
    });
  }
}

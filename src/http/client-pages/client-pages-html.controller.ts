import { Controller, Get, Param, Query, Req, Res, UseFilters, UseGuards } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiExcludeController } from '@nestjs/swagger';
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
import { HtmlErrorFilter } from './html-error.filter';
import { sendCacheable } from './http-cache';
import { detailPage } from './pages/detail-page';
import { directoryPage } from './pages/directory-page';
import { HTML_CONTENT_TYPE, HTML_HEADERS } from './pages/layout';
import { FAVICON_SVG } from './pages/favicon';
import { SITE_CSS } from './pages/site-css';
import { PublicRateLimitGuard } from './public-rate-limit.guard';

/** A day: the stylesheet and icon change only with a new build (their ETags still change with their content). */
const ASSET_MAX_AGE_SECONDS = 86_400;

/** The directory for people: server-rendered HTML from the same read model and queries as the JSON API. */
@ApiExcludeController()
@Controller('clients')
@UseGuards(PublicRateLimitGuard)
@UseFilters(HtmlErrorFilter)
export class ClientPagesHtmlController {
  constructor(private readonly queries: QueryBus) {}

  @Get()
  async directory(
    @Query() query: Record<string, unknown>,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const params = parseDirectoryQuery(query);
    const result = await this.queries.execute<ListClientPagesQuery, ListClientPagesResult>(
      new ListClientPagesQuery(params),
    );
    sendCacheable(request, reply, {
      body: directoryPage(result.view, params),
      contentType: HTML_CONTENT_TYPE,
      lastModified: result.last_modified,
      headers: HTML_HEADERS,
    });
  }

  @Get('assets/site.css')
  stylesheet(@Req() request: FastifyRequest, @Res() reply: FastifyReply): void {
    sendCacheable(request, reply, {
      body: SITE_CSS,
      contentType: 'text/css; charset=utf-8',
      lastModified: null,
      maxAgeSeconds: ASSET_MAX_AGE_SECONDS,
    });
  }

  @Get('assets/favicon.svg')
  favicon(@Req() request: FastifyRequest, @Res() reply: FastifyReply): void {
    sendCacheable(request, reply, {
      body: FAVICON_SVG,
      contentType: 'image/svg+xml; charset=utf-8',
      lastModified: null,
      maxAgeSeconds: ASSET_MAX_AGE_SECONDS,
    });
  }

  @Get(':slug')
  async detail(
    @Param('slug') slug: string,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const result = await this.queries.execute<GetClientPageQuery, GetClientPageResult>(
      new GetClientPageQuery(slug),
    );
    sendCacheable(request, reply, {
      body: detailPage(result.view),
      contentType: HTML_CONTENT_TYPE,
      lastModified: result.last_modified,
      headers: HTML_HEADERS,
    });
  }
}

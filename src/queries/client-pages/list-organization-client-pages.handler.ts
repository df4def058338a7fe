import { Inject } from '@nestjs/common';
import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { NotFoundError } from '../../common/errors';
import type { CairnConfig } from '../../config/config';
import { CONFIG } from '../../core.module';
import { READ_STORE, type ReadStore } from '../../infrastructure/read-store/read-store.port';
import { CLIENT_PAGES, type ClientPageDocument } from '../../projections/client-pages.projection';
import { ORGANIZATIONS } from '../../projections/organizations.projection';
import { clientPageUrl } from './client-page-views';
import {
  ListOrganizationClientPagesQuery,
  type OrganizationClientPage,
} from './list-organization-client-pages.query';

/** The most pages one organization's list returns (one page per chatbot). */
export const MAX_LISTED_PAGES = 1000;

/** An organization's pages by slug (at most MAX_LISTED_PAGES); an unknown organization is 404. */
@QueryHandler(ListOrganizationClientPagesQuery)
export class ListOrganizationClientPagesHandler implements IQueryHandler<
  ListOrganizationClientPagesQuery,
  OrganizationClientPage[]
> {
  constructor(
    @Inject(READ_STORE) private readonly readStore: ReadStore,
    @Inject(CONFIG) private readonly config: CairnConfig,
  ) {}

  async execute(query: ListOrganizationClientPagesQuery): Promise<OrganizationClientPage[]> {
    if (!(await this.readStore.get(ORGANIZATIONS, String(query.organizationId)))) {
      throw new NotFoundError('organization not found');
    }
    const found = await this.readStore.find<ClientPageDocument>(CLIENT_PAGES, {
      filter: { organization_id: query.organizationId },
      sort: [{ field: 'slug', direction: 'asc' }],
      limit: MAX_LISTED_PAGES,
    });
    return found.items.map((doc) => ({
      client_page_id: doc.client_page_id,
      chatbot_id: doc.chatbot_id,
      slug: doc.slug,
      url: clientPageUrl(this.config.publicUrl, doc.slug),
      status: doc.status,
      published_at: doc.published_at,
      updated_at: doc.updated_at,
      organization_summary: doc.organization_summary,
      assistant_use_summary: doc.assistant_use_summary,
    }));
  }
}

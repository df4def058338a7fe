import { Inject } from '@nestjs/common';
import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { isClientPageSlug } from '../../commands/client-pages/client-page-values';
import { NotFoundError } from '../../common/errors';
import type { CairnConfig } from '../../config/config';
import { CONFIG } from '../../core.module';
import { READ_STORE, type ReadStore } from '../../infrastructure/read-store/read-store.port';
import { CLIENT_PAGES, type ClientPageDocument } from '../../projections/client-pages.projection';
import { clientPageDetailView } from './client-page-views';
import { GetClientPageQuery, type GetClientPageResult } from './get-client-page.query';

/** The same 404 for a malformed, unknown, unpublished or hidden slug: nothing tells them apart. */
@QueryHandler(GetClientPageQuery)
export class GetClientPageHandler implements IQueryHandler<GetClientPageQuery, GetClientPageResult> {
  constructor(
    @Inject(READ_STORE) private readonly readStore: ReadStore,
    @Inject(CONFIG) private readonly config: CairnConfig,
  ) {}

  async execute({ slug }: GetClientPageQuery): Promise<GetClientPageResult> {
    const found = isClientPageSlug(slug)
      ? await this.readStore.find<ClientPageDocument>(CLIENT_PAGES, {
          filter: { slug, status: 'published' },
          limit: 1,
        })
      : { items: [] };
    const doc = found.items[0];
    if (doc === undefined) throw new NotFoundError('client page not found');
    return { view: clientPageDetailView(doc, this.config.publicUrl), last_modified: doc.updated_at };
  }
}

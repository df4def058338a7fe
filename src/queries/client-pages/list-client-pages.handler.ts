import { Inject } from '@nestjs/common';
import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import type { CairnConfig } from '../../config/config';
import { CONFIG } from '../../core.module';
import {
  READ_STORE,
  type FindFilter,
  type ReadStore,
  type SortKey,
} from '../../infrastructure/read-store/read-store.port';
import {
  CLIENT_PAGE_DIRECTORY,
  CLIENT_PAGES,
  DIRECTORY_ID,
  foldText,
  type ClientPageDocument,
  type DirectoryState,
} from '../../projections/client-pages.projection';
import { directoryView } from './client-page-views';
import type { DirectorySort } from './directory-options';
import { ListClientPagesQuery, type ListClientPagesResult } from './list-client-pages.query';

/** Every order ends with the slug (unique among pages), so pages never repeat or skip an entry. */
const ORDERS: Record<DirectorySort, SortKey[]> = {
  name: [{ field: 'name_key', direction: 'asc' }],
  newest: [{ field: 'published_at', direction: 'desc' }],
  updated: [{ field: 'updated_at', direction: 'desc' }],
};
const TIE_BREAKER: SortKey = { field: 'slug', direction: 'asc' };

/** Published pages only; `q` matches a substring of the name or a summary, ignoring case and accents. */
@QueryHandler(ListClientPagesQuery)
export class ListClientPagesHandler implements IQueryHandler<ListClientPagesQuery, ListClientPagesResult> {
  constructor(
    @Inject(READ_STORE) private readonly readStore: ReadStore,
    @Inject(CONFIG) private readonly config: CairnConfig,
  ) {}

  async execute({ params }: ListClientPagesQuery): Promise<ListClientPagesResult> {
    // The directory state is read first: a change landing between the two reads then makes Last-Modified older
    // than the body (a harmless extra download), never newer (which could keep a stale copy fresh).
    const state = await this.readStore.get<DirectoryState>(CLIENT_PAGE_DIRECTORY, DIRECTORY_ID);
    const filter: FindFilter = { status: 'published' };
    if (params.q !== '') filter.search_text = { $contains: foldText(params.q) };
    const found = await this.readStore.find<ClientPageDocument>(CLIENT_PAGES, {
      filter,
      sort: [...ORDERS[params.sort], TIE_BREAKER],
      limit: params.per_page,
      offset: (params.page - 1) * params.per_page,
    });
    return {
      view: directoryView(params, found, this.config.publicUrl),
      last_modified: state?.last_changed_at ?? null,
    };
  }
}

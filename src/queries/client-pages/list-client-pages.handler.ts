import { Inject } from '@nestjs/common';
import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import type { CairnConfig } from '../../config/config';
import { CONFIG } from '../../core.module';
import { READ_STORE, type ReadStore } from '../../infrastructure/read-store/read-store.port';
import { MAX_LIMIT } from '../../infrastructure/read-store/read-store-query';
import {
  CLIENT_PAGE_DIRECTORY,
  CLIENT_PAGES,
  DIRECTORY_ID,
  foldText,
  type ClientPageDocument,
  type DirectoryState,
} from '../../projections/client-pages.projection';
import { directoryView } from './client-page-views';
import { DirectorySnapshot } from './directory-snapshot';
import { ListClientPagesQuery, type ListClientPagesResult } from './list-client-pages.query';

/**
 * Published pages only; `q` matches a substring of the name or a summary, ignoring case and accents. Served
 * from an in-memory snapshot of the published directory, renewed when the directory's revision moves.
 */
@QueryHandler(ListClientPagesQuery)
export class ListClientPagesHandler implements IQueryHandler<ListClientPagesQuery, ListClientPagesResult> {
  private snapshot: DirectorySnapshot | null = null;

  constructor(
    @Inject(READ_STORE) private readonly readStore: ReadStore,
    @Inject(CONFIG) private readonly config: CairnConfig,
  ) {}

  async execute({ params }: ListClientPagesQuery): Promise<ListClientPagesResult> {
    // The directory state is read first: a change landing between the two reads then makes Last-Modified older
    // than the body (a harmless extra download), never newer (which could keep a stale copy fresh).
    const state = await this.readStore.get<DirectoryState>(CLIENT_PAGE_DIRECTORY, DIRECTORY_ID);
    const snapshot = await this.snapshotAt(state?.revision ?? 0);
    const found = snapshot.page(
      params.sort,
      foldText(params.q),
      (params.page - 1) * params.per_page,
      params.per_page,
    );
    return {
      view: directoryView(params, found, this.config.publicUrl),
      last_modified: state?.last_changed_at ?? null,
    };
  }

  /**
   * The snapshot of `revision`: the kept one, or every published page read anew. A snapshot read while the
   * directory changed again is used for this request but not kept (its revision would be wrong).
   */
  private async snapshotAt(revision: number): Promise<DirectorySnapshot> {
    if (this.snapshot?.revision === revision) return this.snapshot;
    const published: ClientPageDocument[] = [];
    for (let offset = 0; ; offset += MAX_LIMIT) {
      const { items } = await this.readStore.find<ClientPageDocument>(CLIENT_PAGES, {
        filter: { status: 'published' },
        sort: [{ field: 'id', direction: 'asc' }],
        limit: MAX_LIMIT,
        offset,
      });
      published.push(...items);
      if (items.length < MAX_LIMIT) break;
    }
    const snapshot = new DirectorySnapshot(revision, published);
    const after = await this.readStore.get<DirectoryState>(CLIENT_PAGE_DIRECTORY, DIRECTORY_ID);
    if ((after?.revision ?? 0) === revision) this.snapshot = snapshot;
    return snapshot;
  }
}

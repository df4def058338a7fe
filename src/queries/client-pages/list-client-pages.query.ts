import type { ClientDirectoryView } from './client-page-views';
import type { DirectoryParams } from './directory-options';

/** One page of the public directory (spec §4.8). */
export class ListClientPagesQuery {
  constructor(readonly params: DirectoryParams) {}
}

export interface ListClientPagesResult {
  view: ClientDirectoryView;
  /** When the public directory last changed (ISO 8601), null before anything was ever published. */
  last_modified: string | null;
}

import type { ClientPageDetailView } from './client-page-views';

/** One published page by its slug (spec §4.9); anything else is 404. */
export class GetClientPageQuery {
  constructor(readonly slug: string) {}
}

export interface GetClientPageResult {
  view: ClientPageDetailView;
  /** The page's `updated_at`. */
  last_modified: string;
}

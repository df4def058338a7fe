import { ConflictError } from '../../common/errors';
import type { ClientPageSlugEvent } from '../../events/client-pages/client-page.events';
import type { Decider } from '../shared/decider';

export interface ClaimClientPageSlug {
  type: 'ClaimClientPageSlug';
  slug: string;
  client_page_id: number;
  organization_id: number;
}

export interface ClientPageSlugState {
  claimed_by: number | null;
}

/**
 * Slug uniqueness among client pages (`client-page-slug-{slug}`): the first claim wins and is kept for good, so
 * the page that holds a slug may take it again (a no-op) and every other page is refused with 409 `slug_taken`.
 */
export const clientPageSlugDecider: Decider<ClaimClientPageSlug, ClientPageSlugState, ClientPageSlugEvent> = {
  initialState: () => ({ claimed_by: null }),
  evolve: (state, event) => ({ claimed_by: state.claimed_by ?? event.data.client_page_id }),
  decide(command, state) {
    if (state.claimed_by === command.client_page_id) return [];
    if (state.claimed_by !== null) {
      throw new ConflictError('slug_taken', `the client page slug "${command.slug}" is taken`, [
        { field: 'slug', message: 'already used by another client page' },
      ]);
    }
    const { slug, client_page_id, organization_id } = command;
    return [{ type: 'ClientPageSlugClaimed', data: { slug, client_page_id, organization_id } }];
  },
};

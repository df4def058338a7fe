import { ConflictError } from '../../common/errors';
import type { OrganizationSlugEvent } from '../../events/organizations/organization.events';
import type { Decider } from '../shared/decider';

/**
 * Slug uniqueness. `claimant_abandoned` says the organization currently holding the slug was never registered
 * although its claim is older than a grace period (the process died between the two appends): such an orphan
 * claim may be taken over by a later registration.
 */
export interface ClaimSlug {
  type: 'ClaimSlug';
  slug: string;
  organization_id: number;
  claimant_abandoned: boolean;
}

export interface SlugState {
  claimed_by: number | null;
}

export const organizationSlugDecider: Decider<ClaimSlug, SlugState, OrganizationSlugEvent> = {
  initialState: () => ({ claimed_by: null }),
  evolve: (_state, event) => ({ claimed_by: event.data.organization_id }),
  decide(command, state) {
    if (state.claimed_by === command.organization_id) return [];
    if (state.claimed_by !== null && !command.claimant_abandoned) {
      throw new ConflictError('slug_taken', `the slug "${command.slug}" is taken`, [
        { field: 'slug', message: 'already used by another organization' },
      ]);
    }
    return [
      {
        type: 'OrganizationSlugClaimed',
        data: { slug: command.slug, organization_id: command.organization_id },
      },
    ];
  },
};

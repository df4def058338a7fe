import { ConflictError, NotFoundError, ValidationFailedError } from '../../common/errors';
import type { OrganizationEvent } from '../../events/organizations/organization.events';
import type { Decider } from '../shared/decider';

export type OrganizationCommand =
  | {
      type: 'RegisterOrganization';
      organization_id: number;
      name: string;
      slug: string;
      website_url: string | null;
    }
  | { type: 'PauseAgentActivity' }
  | { type: 'ResumeAgentActivity' }
  | { type: 'SetPlanLimit'; monthly_replies: number | null };

export type OrganizationState =
  | { exists: false }
  | {
      exists: true;
      organization_id: number;
      name: string;
      slug: string;
      website_url: string | null;
      agent_activity_paused: boolean;
      monthly_reply_limit: number | null;
    };

export const MAX_MONTHLY_REPLIES = 100_000_000;

export const organizationDecider: Decider<OrganizationCommand, OrganizationState, OrganizationEvent> = {
  initialState: () => ({ exists: false }),

  evolve(state, event) {
    switch (event.type) {
      case 'OrganizationRegistered':
        return { exists: true, ...event.data, agent_activity_paused: false, monthly_reply_limit: null };
      case 'OrganizationAgentActivityPaused':
        return state.exists ? { ...state, agent_activity_paused: true } : state;
      case 'OrganizationAgentActivityResumed':
        return state.exists ? { ...state, agent_activity_paused: false } : state;
      case 'OrganizationPlanLimitSet':
        return state.exists ? { ...state, monthly_reply_limit: event.data.monthly_replies } : state;
    }
  },

  decide(command, state) {
    if (command.type === 'RegisterOrganization') {
      if (state.exists)
        throw new ConflictError('organization_exists', `organization ${command.organization_id} exists`);
      const { organization_id, name, slug, website_url } = command;
      return [{ type: 'OrganizationRegistered', data: { organization_id, name, slug, website_url } }];
    }
    if (!state.exists) throw new NotFoundError('organization not found');
    const organization_id = state.organization_id;
    switch (command.type) {
      case 'PauseAgentActivity':
        return state.agent_activity_paused
          ? []
          : [{ type: 'OrganizationAgentActivityPaused', data: { organization_id } }];
      case 'ResumeAgentActivity':
        return state.agent_activity_paused
          ? [{ type: 'OrganizationAgentActivityResumed', data: { organization_id } }]
          : [];
      case 'SetPlanLimit': {
        const limit = command.monthly_replies;
        if (limit !== null && (!Number.isInteger(limit) || limit < 0 || limit > MAX_MONTHLY_REPLIES)) {
          throw new ValidationFailedError(
            `monthly replies must be an integer from 0 to ${MAX_MONTHLY_REPLIES}`,
            [{ field: 'monthly_replies', message: `must be an integer from 0 to ${MAX_MONTHLY_REPLIES}` }],
          );
        }
        if (limit === state.monthly_reply_limit) return [];
        return [{ type: 'OrganizationPlanLimitSet', data: { organization_id, monthly_replies: limit } }];
      }
    }
  },
};

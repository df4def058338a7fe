import type { OrganizationEvent } from '../events/organizations/organization.events';
import type { RecordedEvent } from '../infrastructure/event-store/event-store.port';
import type { Projection, ProjectionContext } from './projection';

export const ORGANIZATIONS = 'organizations';

export interface OrganizationDocument {
  id: string;
  organization_id: number;
  name: string;
  slug: string;
  website_url: string | null;
  agent_activity_paused: boolean;
  monthly_reply_limit: number | null;
  created_at: string;
  updated_at: string;
  [key: string]: unknown;
}

/** Organizations as operators and public pages see them. */
export const organizationsProjection: Projection = {
  name: 'organizations',
  version: 1,
  collections: [{ name: ORGANIZATIONS, indexes: ['slug'] }],
  eventTypes: new Set<OrganizationEvent['type']>([
    'OrganizationRegistered',
    'OrganizationAgentActivityPaused',
    'OrganizationAgentActivityResumed',
    'OrganizationPlanLimitSet',
  ]),
  async apply(recorded: RecordedEvent, context: ProjectionContext) {
    const event = recorded as unknown as OrganizationEvent & { metadata: RecordedEvent['metadata'] };
    const at = recorded.metadata.occurred_at;
    const id = String(event.data.organization_id);
    if (event.type === 'OrganizationRegistered') {
      const doc: OrganizationDocument = {
        id,
        ...event.data,
        agent_activity_paused: false,
        monthly_reply_limit: null,
        created_at: at,
        updated_at: at,
      };
      context.put(ORGANIZATIONS, doc);
      return;
    }
    const current = await context.get<OrganizationDocument>(ORGANIZATIONS, id);
    if (!current) return;
    const changes: Partial<OrganizationDocument> =
      event.type === 'OrganizationAgentActivityPaused'
        ? { agent_activity_paused: true }
        : event.type === 'OrganizationAgentActivityResumed'
          ? { agent_activity_paused: false }
          : { monthly_reply_limit: event.data.monthly_replies };
    context.put(ORGANIZATIONS, { ...current, ...changes, updated_at: at });
  },
};

import { organizationDecider } from '../../../src/commands/organizations/organization.decider';
import { organizationSlugDecider } from '../../../src/commands/organizations/organization-slug.decider';
import type { OrganizationEvent } from '../../../src/events/organizations/organization.events';
import { givenDecider } from '../../support/decider-spec';

const given = givenDecider(organizationDecider);
const registered: OrganizationEvent = {
  type: 'OrganizationRegistered',
  data: { organization_id: 7, name: 'Acme', slug: 'acme', website_url: null },
};

describe('organization decider', () => {
  it('registers a new organization', () => {
    given([])
      .when({
        type: 'RegisterOrganization',
        organization_id: 7,
        name: 'Acme',
        slug: 'acme',
        website_url: null,
      })
      .then([registered]);
  });

  it('refuses to register twice', () => {
    given([registered])
      .when({ type: 'RegisterOrganization', organization_id: 7, name: 'X', slug: 'x', website_url: null })
      .thenThrows('organization_exists');
  });

  it('pauses once and treats a second pause as a no-op', () => {
    given([registered])
      .when({ type: 'PauseAgentActivity' })
      .then([{ type: 'OrganizationAgentActivityPaused', data: { organization_id: 7 } }]);
    given([registered, { type: 'OrganizationAgentActivityPaused', data: { organization_id: 7 } }])
      .when({ type: 'PauseAgentActivity' })
      .then([]);
  });

  it('resumes only a paused organization', () => {
    given([registered]).when({ type: 'ResumeAgentActivity' }).then([]);
    given([registered, { type: 'OrganizationAgentActivityPaused', data: { organization_id: 7 } }])
      .when({ type: 'ResumeAgentActivity' })
      .then([{ type: 'OrganizationAgentActivityResumed', data: { organization_id: 7 } }]);
  });

  it('sets, keeps and validates the monthly reply limit', () => {
    given([registered])
      .when({ type: 'SetPlanLimit', monthly_replies: 500 })
      .then([{ type: 'OrganizationPlanLimitSet', data: { organization_id: 7, monthly_replies: 500 } }]);
    given([
      registered,
      { type: 'OrganizationPlanLimitSet', data: { organization_id: 7, monthly_replies: 500 } },
    ])
      .when({ type: 'SetPlanLimit', monthly_replies: 500 })
      .then([]);
    given([registered]).when({ type: 'SetPlanLimit', monthly_replies: -1 }).thenThrows('validation_failed');
    given([registered]).when({ type: 'SetPlanLimit', monthly_replies: 1.5 }).thenThrows('validation_failed');
  });

  it('answers not found for an unknown organization', () => {
    given([]).when({ type: 'PauseAgentActivity' }).thenThrows('not_found');
  });
});

describe('organization slug decider', () => {
  const slug = givenDecider(organizationSlugDecider);
  const claimed = { type: 'OrganizationSlugClaimed' as const, data: { slug: 'acme', organization_id: 1 } };

  it('lets the first claim win', () => {
    slug([])
      .when({ type: 'ClaimSlug', slug: 'acme', organization_id: 1, claimant_abandoned: false })
      .then([claimed]);
  });

  it('refuses a taken slug', () => {
    slug([claimed])
      .when({ type: 'ClaimSlug', slug: 'acme', organization_id: 2, claimant_abandoned: false })
      .thenThrows('slug_taken');
  });

  it('is idempotent for the same claimant', () => {
    slug([claimed])
      .when({ type: 'ClaimSlug', slug: 'acme', organization_id: 1, claimant_abandoned: false })
      .then([]);
  });

  it('lets a registration take over an abandoned claim', () => {
    slug([claimed])
      .when({ type: 'ClaimSlug', slug: 'acme', organization_id: 2, claimant_abandoned: true })
      .then([{ type: 'OrganizationSlugClaimed', data: { slug: 'acme', organization_id: 2 } }]);
  });
});

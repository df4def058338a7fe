import type { DomainEvent } from '../domain-event';

export type OrganizationRegistered = DomainEvent<
  'OrganizationRegistered',
  { organization_id: number; name: string; slug: string; website_url: string | null }
>;
export type OrganizationAgentActivityPaused = DomainEvent<
  'OrganizationAgentActivityPaused',
  { organization_id: number }
>;
export type OrganizationAgentActivityResumed = DomainEvent<
  'OrganizationAgentActivityResumed',
  { organization_id: number }
>;
/** A monthly reply limit for the organization's assistants; null removes the limit. */
export type OrganizationPlanLimitSet = DomainEvent<
  'OrganizationPlanLimitSet',
  { organization_id: number; monthly_replies: number | null }
>;

export type OrganizationEvent =
  | OrganizationRegistered
  | OrganizationAgentActivityPaused
  | OrganizationAgentActivityResumed
  | OrganizationPlanLimitSet;

/** Slugs are unique: the first claim appended to `organization-slug-{slug}` wins. */
export type OrganizationSlugClaimed = DomainEvent<
  'OrganizationSlugClaimed',
  { slug: string; organization_id: number }
>;
export type OrganizationSlugEvent = OrganizationSlugClaimed;

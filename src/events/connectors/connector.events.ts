import type { DomainEvent } from '../domain-event';

export type GroundingPolicy = 'strict' | 'standard';

export type ConnectorRegistered = DomainEvent<
  'ConnectorRegistered',
  {
    connector_id: number;
    organization_id: number;
    name: string;
    /** Public identifier of the connector client; scopes tool_private memory. */
    client_key: string;
    capabilities: string[];
    grounding_policy: GroundingPolicy;
  }
>;
/** A token was issued. Only its SHA-256 is recorded; a new token supersedes the previous active one. */
export type ConnectorTokenIssued = DomainEvent<
  'ConnectorTokenIssued',
  { connector_id: number; token_id: string; token_sha256: string; supersedes_token_id: string | null }
>;
export type ConnectorTokenRevoked = DomainEvent<
  'ConnectorTokenRevoked',
  { connector_id: number; token_id: string }
>;
export type ConnectorCapabilitiesSet = DomainEvent<
  'ConnectorCapabilitiesSet',
  { connector_id: number; capabilities: string[]; previous: string[] }
>;
export type ConnectorGroundingPolicySet = DomainEvent<
  'ConnectorGroundingPolicySet',
  { connector_id: number; grounding_policy: GroundingPolicy; previous: GroundingPolicy }
>;

export type ConnectorEvent =
  | ConnectorRegistered
  | ConnectorTokenIssued
  | ConnectorTokenRevoked
  | ConnectorCapabilitiesSet
  | ConnectorGroundingPolicySet;

import type { GroundingPolicy } from '../../events/connectors/connector.events';

/** The authenticated caller of a connector endpoint. The organization comes from here, never from the request. */
export interface ConnectorPrincipal {
  connector_id: number;
  organization_id: number;
  name: string;
  client_key: string;
  capabilities: string[];
  grounding_policy: GroundingPolicy;
  /** The id of the token that authenticated this request (provenance). */
  token_id: string;
}

import type { ConnectorPrincipal } from '../../src/http/auth/connector-principal';

/** The connector the search handler's unit tests search as: organization 7, memory_search only. */
export const SEARCH_CONNECTOR: ConnectorPrincipal = {
  connector_id: 1,
  organization_id: 7,
  name: 'tool',
  client_key: 'ck_tool',
  capabilities: ['memory_search'],
  grounding_policy: 'strict',
  token_id: 'tok_1',
};

import type { ConnectorEvent, GroundingPolicy } from '../events/connectors/connector.events';
import type { RecordedEvent } from '../infrastructure/event-store/event-store.port';
import type { Projection, ProjectionContext } from './projection';

export const CONNECTORS = 'connectors';
/** Token look-up by SHA-256 (the document id). Authentication still decides on the connector's stream. */
export const CONNECTOR_TOKENS = 'connector_tokens';

export interface ConnectorDocument {
  id: string;
  connector_id: number;
  organization_id: number;
  name: string;
  client_key: string;
  capabilities: string[];
  grounding_policy: GroundingPolicy;
  active_token_id: string | null;
  /** SHA-256 of the active token (to mark it superseded/revoked); never the token. */
  active_token_sha256: string | null;
  created_at: string;
  updated_at: string;
  [key: string]: unknown;
}

export interface ConnectorTokenDocument {
  id: string;
  token_id: string;
  connector_id: number;
  organization_id: number;
  status: 'active' | 'superseded' | 'revoked';
  issued_at: string;
  [key: string]: unknown;
}

export const connectorsProjection: Projection = {
  name: 'connectors',
  version: 1,
  collections: [
    { name: CONNECTORS, indexes: ['organization_id'] },
    { name: CONNECTOR_TOKENS, indexes: [] },
  ],
  eventTypes: new Set<ConnectorEvent['type']>([
    'ConnectorRegistered',
    'ConnectorTokenIssued',
    'ConnectorTokenRevoked',
    'ConnectorCapabilitiesSet',
    'ConnectorGroundingPolicySet',
  ]),
  async apply(recorded: RecordedEvent, context: ProjectionContext) {
    const event = recorded as unknown as ConnectorEvent;
    const at = recorded.metadata.occurred_at;
    const id = String(event.data.connector_id);
    if (event.type === 'ConnectorRegistered') {
      const doc: ConnectorDocument = {
        id,
        ...event.data,
        active_token_id: null,
        active_token_sha256: null,
        created_at: at,
        updated_at: at,
      };
      context.put(CONNECTORS, doc);
      return;
    }
    const connector = await context.get<ConnectorDocument>(CONNECTORS, id);
    if (!connector) return;
    switch (event.type) {
      case 'ConnectorTokenIssued': {
        await markToken(context, connector.active_token_sha256, 'superseded');
        const token: ConnectorTokenDocument = {
          id: event.data.token_sha256,
          token_id: event.data.token_id,
          connector_id: connector.connector_id,
          organization_id: connector.organization_id,
          status: 'active',
          issued_at: at,
        };
        context.put(CONNECTOR_TOKENS, token);
        context.put(CONNECTORS, {
          ...connector,
          active_token_id: event.data.token_id,
          active_token_sha256: event.data.token_sha256,
          updated_at: at,
        });
        return;
      }
      case 'ConnectorTokenRevoked':
        if (connector.active_token_id !== event.data.token_id) return;
        await markToken(context, connector.active_token_sha256, 'revoked');
        context.put(CONNECTORS, {
          ...connector,
          active_token_id: null,
          active_token_sha256: null,
          updated_at: at,
        });
        return;
      case 'ConnectorCapabilitiesSet':
        context.put(CONNECTORS, { ...connector, capabilities: event.data.capabilities, updated_at: at });
        return;
      case 'ConnectorGroundingPolicySet':
        context.put(CONNECTORS, {
          ...connector,
          grounding_policy: event.data.grounding_policy,
          updated_at: at,
        });
        return;
    }
  },
};

async function markToken(
  context: ProjectionContext,
  sha256: string | null,
  status: ConnectorTokenDocument['status'],
): Promise<void> {
  if (sha256 === null) return;
  const token = await context.get<ConnectorTokenDocument>(CONNECTOR_TOKENS, sha256);
  if (token) context.put(CONNECTOR_TOKENS, { ...token, status });
}

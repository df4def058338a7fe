import { ConflictError, NotFoundError } from '../../common/errors';
import type { ConnectorEvent, GroundingPolicy } from '../../events/connectors/connector.events';
import type { Decider } from '../shared/decider';
import { normalizeCapabilities } from './capabilities';

/** A freshly generated token, as the decider sees it: its id and SHA-256, never the token itself. */
export interface IssuedToken {
  token_id: string;
  token_sha256: string;
}

export type ConnectorCommand =
  | {
      type: 'RegisterConnector';
      connector_id: number;
      organization_id: number;
      name: string;
      client_key: string;
      capabilities: string[];
      grounding_policy: GroundingPolicy;
      token: IssuedToken;
    }
  /** Every other command names the organization: another organization's connector reads as not found. */
  | { type: 'RotateToken'; organization_id: number; token: IssuedToken }
  | { type: 'RevokeToken'; organization_id: number }
  | { type: 'SetCapabilities'; organization_id: number; capabilities: string[] }
  | { type: 'SetGroundingPolicy'; organization_id: number; grounding_policy: GroundingPolicy };

export type ConnectorState =
  | { exists: false }
  | {
      exists: true;
      connector_id: number;
      organization_id: number;
      name: string;
      client_key: string;
      capabilities: string[];
      grounding_policy: GroundingPolicy;
      /** The one token that authenticates now, or null after a revocation. */
      active_token: IssuedToken | null;
      /** Every token ever issued, oldest first (provenance for receipts). */
      token_ids: string[];
    };

export const connectorDecider: Decider<ConnectorCommand, ConnectorState, ConnectorEvent> = {
  initialState: () => ({ exists: false }),

  evolve(state, event) {
    if (event.type === 'ConnectorRegistered') {
      return { exists: true, ...event.data, active_token: null, token_ids: [] };
    }
    if (!state.exists) return state;
    switch (event.type) {
      case 'ConnectorTokenIssued': {
        const { token_id, token_sha256 } = event.data;
        return {
          ...state,
          active_token: { token_id, token_sha256 },
          token_ids: [...state.token_ids, token_id],
        };
      }
      case 'ConnectorTokenRevoked':
        return state.active_token?.token_id === event.data.token_id
          ? { ...state, active_token: null }
          : state;
      case 'ConnectorCapabilitiesSet':
        return { ...state, capabilities: event.data.capabilities };
      case 'ConnectorGroundingPolicySet':
        return { ...state, grounding_policy: event.data.grounding_policy };
    }
  },

  decide(command, state) {
    if (command.type === 'RegisterConnector') {
      if (state.exists)
        throw new ConflictError('connector_exists', `connector ${command.connector_id} exists`);
      const { connector_id, organization_id, name, client_key, grounding_policy, token } = command;
      const capabilities = normalizeCapabilities(command.capabilities);
      return [
        {
          type: 'ConnectorRegistered',
          data: { connector_id, organization_id, name, client_key, capabilities, grounding_policy },
        },
        { type: 'ConnectorTokenIssued', data: { connector_id, ...token, supersedes_token_id: null } },
      ];
    }
    if (!state.exists || state.organization_id !== command.organization_id) {
      throw new NotFoundError('connector not found');
    }
    const connector_id = state.connector_id;
    switch (command.type) {
      case 'RotateToken':
        return [
          {
            type: 'ConnectorTokenIssued',
            data: {
              connector_id,
              ...command.token,
              supersedes_token_id: state.active_token?.token_id ?? null,
            },
          },
        ];
      case 'RevokeToken':
        return state.active_token
          ? [{ type: 'ConnectorTokenRevoked', data: { connector_id, token_id: state.active_token.token_id } }]
          : [];
      case 'SetCapabilities': {
        const capabilities = normalizeCapabilities(command.capabilities);
        if (capabilities.join(',') === state.capabilities.join(',')) return [];
        return [
          {
            type: 'ConnectorCapabilitiesSet',
            data: { connector_id, capabilities, previous: state.capabilities },
          },
        ];
      }
      case 'SetGroundingPolicy':
        if (command.grounding_policy === state.grounding_policy) return [];
        return [
          {
            type: 'ConnectorGroundingPolicySet',
            data: {
              connector_id,
              grounding_policy: command.grounding_policy,
              previous: state.grounding_policy,
            },
          },
        ];
    }
  },
};

import { randomUUID } from 'node:crypto';
import type { ConnectorPrincipal } from '../../http/auth/connector-principal';
import type { CommandContext } from '../shared/command-context';

/** Event metadata for what a connector's request appends. */
export function contextForConnector(connector: ConnectorPrincipal): CommandContext {
  return { actor: `connector:${connector.connector_id}`, correlation_id: randomUUID(), causation_id: null };
}

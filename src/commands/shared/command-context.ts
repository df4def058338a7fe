import { randomUUID } from 'node:crypto';

/** Who asked, and in reply to what: becomes every appended event's metadata. */
export interface CommandContext {
  /** `connector:<id>`, `operator:<name>` or `system:<component>`. */
  actor: string;
  correlation_id: string;
  causation_id: string | null;
}

export function operatorContext(name = process.env.USER ?? 'cli'): CommandContext {
  return { actor: `operator:${name}`, correlation_id: randomUUID(), causation_id: null };
}

/**
 * What a connector's request appends: the connector is the actor; the correlation id is the HTTP request's id
 * (`X-Request-Id`, so events, log lines and the client's own records name the same request), or a new UUID.
 */
export function connectorContext(connector: { connector_id: number }, requestId?: string): CommandContext {
  return {
    actor: `connector:${connector.connector_id}`,
    correlation_id: requestId ?? randomUUID(),
    causation_id: null,
  };
}

export function systemContext(component: string): CommandContext {
  return { actor: `system:${component}`, correlation_id: randomUUID(), causation_id: null };
}

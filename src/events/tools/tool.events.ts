import type { ToolDefinition } from '../../tools/tool-definition';
import type { DomainEvent } from '../domain-event';

/**
 * A tool definition was registered for an organization (stream `tool-{organization}-{key}`): the first
 * registration (version 1) or a changed definition (the next version). Re-registering the same definition
 * (same `definition_sha256`) records nothing.
 */
export type ToolRegistered = DomainEvent<
  'ToolRegistered',
  {
    organization_id: number;
    tool_key: string;
    /** The validated definition, as plain JSON. */
    definition: ToolDefinition;
    /** SHA-256 of the definition's canonical JSON (RFC 8785). */
    definition_sha256: string;
    /** 1, 2, …: one more for each changed definition. */
    version: number;
    registered_at: string;
  }
>;
/** An operator enabled the tool (its current version). New tools start disabled. */
export type ToolEnabled = DomainEvent<
  'ToolEnabled',
  { organization_id: number; tool_key: string; version: number }
>;
export type ToolDisabled = DomainEvent<
  'ToolDisabled',
  { organization_id: number; tool_key: string; version: number }
>;

export type ToolEvent = ToolRegistered | ToolEnabled | ToolDisabled;

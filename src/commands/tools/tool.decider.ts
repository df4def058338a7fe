import { NotFoundError, ValidationFailedError } from '../../common/errors';
import type { ToolEvent } from '../../events/tools/tool.events';
import type { ToolDefinition } from '../../tools/tool-definition';
import { TOOL_CAPABILITY_PATTERN } from '../connectors/capabilities';
import { canonicalDigest } from '../shared/canonical-digest';
import type { Decider } from '../shared/decider';

/**
 * The assistant tool registry of one organization, one stream per tool key (`tool-{organization}-{key}`).
 *
 * - `RegisterTool` takes an already validated definition (parseToolDefinition). The same definition again (same
 *   canonical SHA-256) records nothing; a changed one records the next version and keeps the enabled state.
 * - A newly registered tool starts DISABLED: registering only describes a tool; an operator enables it
 *   explicitly (`tool:enable`), so a definition never becomes callable as a side effect of being registered.
 * - `EnableTool` / `DisableTool` are idempotent; an unknown tool is 404 `tool_not_found`.
 */
export type ToolCommand =
  | {
      type: 'RegisterTool';
      organization_id: number;
      definition: ToolDefinition;
      /** When the operator registered it (from the handler's clock: deciders read no clock). */
      registered_at: string;
    }
  | { type: 'EnableTool'; organization_id: number; tool_key: string }
  | { type: 'DisableTool'; organization_id: number; tool_key: string };

export type ToolState =
  | { exists: false }
  | {
      exists: true;
      organization_id: number;
      tool_key: string;
      version: number;
      definition: ToolDefinition;
      definition_sha256: string;
      enabled: boolean;
    };

/** A tool key: what follows `assistant_tool:` in a connector capability. */
export function isToolKey(value: string): boolean {
  return TOOL_CAPABILITY_PATTERN.test(`assistant_tool:${value}`);
}

/** The digest a registration records: canonical JSON, so key order never makes a "change". */
export function toolDefinitionDigest(definition: ToolDefinition): string {
  return canonicalDigest(definition);
}

export const toolDecider: Decider<ToolCommand, ToolState, ToolEvent> = {
  initialState: () => ({ exists: false }),

  evolve(state, event) {
    switch (event.type) {
      case 'ToolRegistered': {
        const { organization_id, tool_key, version, definition, definition_sha256 } = event.data;
        const enabled = state.exists ? state.enabled : false;
        return { exists: true, organization_id, tool_key, version, definition, definition_sha256, enabled };
      }
      case 'ToolEnabled':
        return state.exists ? { ...state, enabled: true } : state;
      case 'ToolDisabled':
        return state.exists ? { ...state, enabled: false } : state;
    }
  },

  decide(command, state) {
    if (command.type === 'RegisterTool') {
      const { definition, organization_id } = command;
      if (!isToolKey(definition.key)) {
        throw new ValidationFailedError('the tool key cannot name a connector capability', [
          { field: 'key', message: 'lowercase letter, then at most 63 of a-z, 0-9, _' },
        ]);
      }
      if (state.exists && state.tool_key !== definition.key) {
        throw new ValidationFailedError(`this stream holds tool ${state.tool_key}, not ${definition.key}`, [
          { field: 'key', message: 'does not match the registered tool' },
        ]);
      }
      const definition_sha256 = toolDefinitionDigest(definition);
      if (state.exists && state.definition_sha256 === definition_sha256) return [];
      return [
        {
          type: 'ToolRegistered',
          data: {
            organization_id,
            tool_key: definition.key,
            definition,
            definition_sha256,
            version: state.exists ? state.version + 1 : 1,
            registered_at: command.registered_at,
          },
        },
      ];
    }
    if (
      !state.exists ||
      state.organization_id !== command.organization_id ||
      state.tool_key !== command.tool_key
    ) {
      throw new NotFoundError('tool not found', 'tool_not_found');
    }
    const data = { organization_id: state.organization_id, tool_key: state.tool_key, version: state.version };
    if (command.type === 'EnableTool') return state.enabled ? [] : [{ type: 'ToolEnabled', data }];
    return state.enabled ? [{ type: 'ToolDisabled', data }] : [];
  },
};

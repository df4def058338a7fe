import type { ToolEvent } from '../events/tools/tool.events';
import type { RecordedEvent } from '../infrastructure/event-store/event-store.port';
import type { ToolDefinition } from '../tools/tool-definition';
import type { Projection, ProjectionContext } from './projection';

export const ASSISTANT_TOOLS = 'assistant_tools';

/** One per (organization, tool key): the tool's current definition and whether it is enabled. */
export interface AssistantToolDocument {
  /** `{organization_id}:{tool_key}`. */
  id: string;
  tool_key: string;
  organization_id: number;
  enabled: boolean;
  version: number;
  definition: ToolDefinition;
  definition_sha256: string;
  updated_at: string;
  [key: string]: unknown;
}

export function assistantToolId(organizationId: number, toolKey: string): string {
  return `${organizationId}:${toolKey}`;
}

/** The registered assistant tools (`tool:list`). Enforcement decides on the tool's stream, never on this. */
export const toolsProjection: Projection = {
  name: 'assistant-tools',
  version: 1,
  collections: [{ name: ASSISTANT_TOOLS, indexes: ['organization_id', 'tool_key'] }],
  eventTypes: new Set<ToolEvent['type']>(['ToolRegistered', 'ToolEnabled', 'ToolDisabled']),
  async apply(recorded: RecordedEvent, context: ProjectionContext) {
    const event = recorded as unknown as ToolEvent;
    const at = recorded.metadata.occurred_at;
    const id = assistantToolId(event.data.organization_id, event.data.tool_key);
    const current = await context.get<AssistantToolDocument>(ASSISTANT_TOOLS, id);
    if (event.type === 'ToolRegistered') {
      const { organization_id, tool_key, version, definition, definition_sha256 } = event.data;
      const doc: AssistantToolDocument = {
        id,
        tool_key,
        organization_id,
        enabled: current?.enabled ?? false,
        version,
        definition,
        definition_sha256,
        updated_at: at,
      };
      context.put(ASSISTANT_TOOLS, doc);
      return;
    }
    if (current)
      context.put(ASSISTANT_TOOLS, { ...current, enabled: event.type === 'ToolEnabled', updated_at: at });
  },
};

import { canonicalDigest } from '../../../src/commands/shared/canonical-digest';
import { isToolKey, toolDecider, type ToolCommand } from '../../../src/commands/tools/tool.decider';
import type { ToolEvent, ToolRegistered } from '../../../src/events/tools/tool.events';
import type { ToolDefinition } from '../../../src/tools/tool-definition';
import { givenDecider } from '../../support/decider-spec';

const given = givenDecider(toolDecider);
const AT = '2026-01-02T03:04:05.000Z';

const definition = {
  key: 'order_status',
  description: 'Looks up the status of an order',
  endpoint: 'https://tools.example.com/order-status',
  timeout_ms: 5000,
  read_only: true,
  requires_approval: false,
  input_schema: {
    type: 'object',
    properties: { order_id: { type: 'string', maxLength: 64 } },
    required: ['order_id'],
    additionalProperties: false,
  },
  output_schema: {
    type: 'object',
    properties: { status: { type: 'string', maxLength: 32 } },
    required: ['status'],
    additionalProperties: false,
  },
  linkable_fields: [],
  allowed_link_hosts: [],
} as unknown as ToolDefinition;

const changed = { ...definition, description: 'Looks up an order' } as ToolDefinition;

function registered(def: ToolDefinition, version: number, organization_id = 1): ToolRegistered {
  return {
    type: 'ToolRegistered',
    data: {
      organization_id,
      tool_key: def.key,
      definition: def,
      definition_sha256: canonicalDigest(def),
      version,
      registered_at: AT,
    },
  };
}

const register = (def: ToolDefinition, organization_id = 1): ToolCommand => ({
  type: 'RegisterTool',
  organization_id,
  definition: def,
  registered_at: AT,
});
const enable: ToolCommand = { type: 'EnableTool', organization_id: 1, tool_key: 'order_status' };
const disable: ToolCommand = { type: 'DisableTool', organization_id: 1, tool_key: 'order_status' };
const toggled = (type: 'ToolEnabled' | 'ToolDisabled', version = 1): ToolEvent => ({
  type,
  data: { organization_id: 1, tool_key: 'order_status', version },
});

describe('tool decider', () => {
  it('registers a new tool as version 1, disabled', () => {
    given([])
      .when(register(definition))
      .then([registered(definition, 1)]);
    const state = [registered(definition, 1)].reduce(toolDecider.evolve, toolDecider.initialState());
    expect(state).toMatchObject({ exists: true, enabled: false, version: 1, tool_key: 'order_status' });
  });

  it('records the canonical digest: key order does not matter', () => {
    const reordered = Object.fromEntries(Object.entries(definition).reverse()) as unknown as ToolDefinition;
    expect(canonicalDigest(reordered)).toBe(canonicalDigest(definition));
    given([registered(definition, 1)])
      .when(register(reordered))
      .then([]);
  });

  it('re-registering the same definition records nothing', () => {
    given([registered(definition, 1)])
      .when(register(definition))
      .then([]);
    given([registered(definition, 1), toggled('ToolEnabled')])
      .when(register(definition))
      .then([]);
  });

  it('a changed definition becomes the next version and keeps the enabled state', () => {
    given([registered(definition, 1)])
      .when(register(changed))
      .then([registered(changed, 2)]);
    const history = [registered(definition, 1), toggled('ToolEnabled'), registered(changed, 2)];
    const state = history.reduce(toolDecider.evolve, toolDecider.initialState());
    expect(state).toMatchObject({ exists: true, enabled: true, version: 2 });
    given(history)
      .when(register(definition))
      .then([registered(definition, 3)]);
    const disabled = [registered(definition, 1), registered(changed, 2)].reduce(
      toolDecider.evolve,
      toolDecider.initialState(),
    );
    expect(disabled).toMatchObject({ enabled: false, version: 2 });
  });

  it('rejects a key that cannot name a connector capability', () => {
    given([])
      .when(register({ ...definition, key: 'Bad Key' } as ToolDefinition))
      .thenThrows('validation_failed');
    expect(isToolKey('order_status')).toBe(true);
    expect(isToolKey('order-status')).toBe(false);
    expect(isToolKey('../x')).toBe(false);
    expect(isToolKey('a'.repeat(65))).toBe(false);
  });

  it('rejects registering another key on an existing tool stream', () => {
    given([registered(definition, 1)])
      .when(register({ ...definition, key: 'other_tool' } as ToolDefinition))
      .thenThrows('validation_failed');
  });

  it('enables and disables idempotently, recording the current version', () => {
    given([registered(definition, 1)])
      .when(enable)
      .then([toggled('ToolEnabled')]);
    given([registered(definition, 1), toggled('ToolEnabled')])
      .when(enable)
      .then([]);
    given([registered(definition, 1)])
      .when(disable)
      .then([]);
    given([registered(definition, 1), registered(changed, 2), toggled('ToolEnabled', 2)])
      .when(disable)
      .then([toggled('ToolDisabled', 2)]);
  });

  it('an unknown tool, or another organization’s, is tool_not_found', () => {
    given([]).when(enable).thenThrows('tool_not_found');
    given([]).when(disable).thenThrows('tool_not_found');
    given([registered(definition, 1, 2)])
      .when(enable)
      .thenThrows('tool_not_found');
    given([registered(definition, 1)])
      .when({ type: 'EnableTool', organization_id: 1, tool_key: 'other_tool' })
      .thenThrows('tool_not_found');
  });
});

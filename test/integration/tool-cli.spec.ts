import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cairn } from '../support/cli';
import { makeTempDir } from '../support/temp-dir';

/** A definition the strict tool contract accepts: read-only, no approval, bounded and closed schemas. */
const VALID = {
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
    properties: {
      status: { type: 'string', maxLength: 32 },
      tracking_url: { type: 'string', maxLength: 512 },
    },
    required: ['status'],
    additionalProperties: false,
  },
  linkable_fields: ['tracking_url'],
  allowed_link_hosts: ['track.example.com'],
};

describe('assistant tool registry CLI (real processes, embedded store)', () => {
  jest.setTimeout(180_000);
  const temp = makeTempDir();
  afterAll(() => temp.cleanup());
  const dataDir = join(temp.dir, 'data');
  const run = (...args: string[]) => cairn(dataDir, ...args);
  let fileCount = 0;
  /** Writes a definition (an object, or raw text) into the temp dir and returns its path. */
  const file = (definition: unknown): string => {
    const path = join(temp.dir, `tool-${++fileCount}.json`);
    writeFileSync(path, typeof definition === 'string' ? definition : JSON.stringify(definition, null, 2));
    return path;
  };
  let org = '';

  beforeAll(async () => {
    const created = await run('org:create', '--name', 'Tools Org');
    expect(created.code).toBe(0);
    org = String(created.json.organization_id);
  });

  it('registers a tool disabled, lists, enables, disables, and records every change on its stream', async () => {
    const registered = await run('tool:register', org, file(VALID));
    expect(registered.code).toBe(0);
    expect(registered.json).toEqual({
      ok: true,
      tool_key: 'order_status',
      enabled: false,
      version: 1,
      changed: true,
    });

    const listed = await run('tool:list', org);
    expect(listed.json).toEqual({
      ok: true,
      tools: [
        {
          tool_key: 'order_status',
          enabled: false,
          version: 1,
          description: VALID.description,
          endpoint: VALID.endpoint,
          read_only: true,
          requires_approval: false,
        },
      ],
    });

    expect((await run('tool:enable', org, 'order_status')).json).toEqual({
      ok: true,
      tool_key: 'order_status',
      enabled: true,
      changed: true,
    });
    expect((await run('tool:enable', org, 'order_status')).json).toMatchObject({
      enabled: true,
      changed: false,
    });
    expect((await run('tool:list', org)).json.tools[0]).toMatchObject({ enabled: true });
    expect((await run('tool:disable', org, 'order_status')).json).toEqual({
      ok: true,
      tool_key: 'order_status',
      enabled: false,
      changed: true,
    });
    expect((await run('tool:disable', org, 'order_status')).json).toMatchObject({ changed: false });
    expect((await run('tool:enable', org, 'order_status')).json).toMatchObject({ changed: true });

    const audit = await run('audit:stream', `tool-${org}-order_status`);
    expect(audit.code).toBe(0);
    expect(audit.json.events.map((e: { type: string }) => e.type)).toEqual([
      'ToolRegistered',
      'ToolEnabled',
      'ToolDisabled',
      'ToolEnabled',
    ]);
    expect(audit.json.events[0]).toMatchObject({
      data: {
        organization_id: Number(org),
        tool_key: 'order_status',
        version: 1,
        definition_sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
        definition: expect.objectContaining({ key: 'order_status', endpoint: VALID.endpoint }),
        registered_at: expect.any(String),
      },
      metadata: { organization_id: org, actor: expect.stringMatching(/^operator:/) },
    });
  });

  it('re-registering the same definition changes nothing; a changed one is the next version, enabled kept', async () => {
    // The same definition with its keys in another order is the same definition.
    const reordered = Object.fromEntries(Object.entries(VALID).reverse());
    const same = await run('tool:register', org, file(reordered));
    expect(same.json).toEqual({
      ok: true,
      tool_key: 'order_status',
      enabled: true,
      version: 1,
      changed: false,
    });

    const changed = await run('tool:register', org, file({ ...VALID, description: 'Order status look-up' }));
    expect(changed.json).toEqual({
      ok: true,
      tool_key: 'order_status',
      enabled: true,
      version: 2,
      changed: true,
    });
    expect((await run('tool:list', org)).json.tools).toEqual([
      expect.objectContaining({
        tool_key: 'order_status',
        enabled: true,
        version: 2,
        description: 'Order status look-up',
      }),
    ]);
    const events = (await run('audit:stream', `tool-${org}-order_status`)).json.events;
    expect(events).toHaveLength(5);
    expect(events[4]).toMatchObject({ type: 'ToolRegistered', data: { version: 2 } });
  });

  it('lists tools ordered by key, each organization only its own', async () => {
    await run('tool:register', org, file({ ...VALID, key: 'address_lookup' }));
    const other = String((await run('org:create', '--name', 'Other Org')).json.organization_id);
    await run('tool:register', other, file({ ...VALID, key: 'zeta_tool' }));
    const keys = (await run('tool:list', org)).json.tools.map((t: { tool_key: string }) => t.tool_key);
    expect(keys).toEqual(['address_lookup', 'order_status']);
    expect((await run('tool:list', other)).json.tools.map((t: { tool_key: string }) => t.tool_key)).toEqual([
      'zeta_tool',
    ]);
    // Another organization's tool is not found, never changed.
    expect((await run('tool:enable', org, 'zeta_tool')).json).toMatchObject({
      ok: false,
      error: { code: 'tool_not_found' },
    });
  });

  const invalid: Array<[string, unknown, string]> = [
    [
      'a string without maxLength in output_schema',
      {
        ...VALID,
        output_schema: {
          ...VALID.output_schema,
          properties: { ...VALID.output_schema.properties, status: { type: 'string' } },
        },
      },
      'output_schema.properties.status',
    ],
    ['an approval-required tool', { ...VALID, requires_approval: true }, 'requires_approval'],
    ['a write-risk (not read-only) tool', { ...VALID, read_only: false }, 'read_only'],
    [
      'a secret-bearing output field',
      {
        ...VALID,
        output_schema: {
          ...VALID.output_schema,
          properties: { ...VALID.output_schema.properties, api_key: { type: 'string', maxLength: 64 } },
        },
      },
      'output_schema.properties.api_key',
    ],
  ];

  it.each(invalid)(
    'rejects %s, naming the schema path, and records nothing',
    async (_name, definition, path) => {
      const res = await run('tool:register', org, file({ ...(definition as object), key: 'rejected_tool' }));
      expect(res.code).toBe(1);
      expect(res.json).toMatchObject({
        ok: false,
        error: {
          code: 'tool_definition_invalid',
          message: expect.stringContaining(path),
          details: expect.any(Array),
        },
      });
      const fields = res.json.error.details.map((d: { field?: string }) => d.field ?? '');
      expect(fields.some((field: string) => field.startsWith(path))).toBe(true);
      expect((await run('audit:stream', `tool-${org}-rejected_tool`)).json).toMatchObject({
        error: { code: 'stream_not_found' },
      });
    },
  );

  it('an unreadable file or bad JSON is a validation error naming the file', async () => {
    const missing = join(temp.dir, 'no-such-tool.json');
    const absent = await run('tool:register', org, missing);
    expect(absent).toMatchObject({ code: 1, json: { ok: false, error: { code: 'validation_failed' } } });
    expect(absent.json.error.message).toContain(missing);
    expect(absent.json.error.details[0]).toMatchObject({ field: 'FILE', path: missing });

    const broken = file('{"key": "order_status",');
    const bad = await run('tool:register', org, broken);
    expect(bad).toMatchObject({ code: 1, json: { ok: false, error: { code: 'validation_failed' } } });
    expect(bad.json.error.message).toContain(broken);

    const poisoned = file('{"key": "order_status", "__proto__": {"x": 1}}');
    expect((await run('tool:register', org, poisoned)).json.error.message).toContain('forbidden key');
  });

  it('unknown organization → not_found; unknown tool → tool_not_found; bad arguments → usage/validation', async () => {
    expect((await run('tool:register', '999999', file(VALID))).json).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
    expect((await run('tool:list', '999999')).json).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
    const unknown = await run('tool:enable', org, 'no_such_tool');
    expect(unknown).toMatchObject({ code: 1, json: { ok: false, error: { code: 'tool_not_found' } } });
    expect((await run('tool:disable', org, 'no_such_tool')).json).toMatchObject({
      error: { code: 'tool_not_found' },
    });
    expect((await run('tool:enable', org, '../Bad Key')).json).toMatchObject({
      error: { code: 'tool_not_found' },
    });
    expect((await run('tool:enable', '999999', 'order_status')).json).toMatchObject({
      error: { code: 'not_found' },
    });
    expect((await run('tool:list', 'abc')).json).toMatchObject({ error: { code: 'validation_failed' } });
    expect((await run('tool:register', org)).json).toMatchObject({ error: { code: 'usage_error' } });
  });

  it('the assistant_tools read model rebuilds to the same tools', async () => {
    const before = (await run('tool:list', org)).json;
    const rebuilt = await run('projections:rebuild', 'assistant-tools');
    expect(rebuilt.json.rebuilt).toEqual([
      { name: 'assistant-tools', position: expect.any(Number), duration_ms: expect.any(Number) },
    ]);
    expect((await run('tool:list', org)).json).toEqual(before);
  });
});

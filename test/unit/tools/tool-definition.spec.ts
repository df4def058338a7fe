import { ValidationFailedError } from '../../../src/common/errors';
import { checkToolDefinition, parseToolDefinition } from '../../../src/tools/tool-definition';
import { arr, bool, int, obj, str, type Raw } from './schema-builders';

const valid = (overrides: Raw = {}): Raw => ({
  key: 'order_status',
  description: 'Looks up the status of an order by its number.',
  endpoint: 'https://tools.example.com/order-status',
  timeout_ms: 3000,
  read_only: true,
  requires_approval: false,
  input_schema: obj({ order_id: str({ maxLength: 40, minLength: 1 }) }, { required: ['order_id'] }),
  output_schema: obj(
    {
      status: str({ enum: ['pending', 'shipped', 'delivered'] }),
      tracking_url: str({ type: ['string', 'null'], maxLength: 500 }),
      shipments: arr(obj({ carrier: str(), link: str({ maxLength: 500 }) })),
      parcels: int(),
      gift: bool(),
    },
    { required: ['status'] },
  ),
  linkable_fields: ['tracking_url', 'shipments[].link'],
  allowed_link_hosts: ['track.example.com'],
  ...overrides,
});

function without(key: string): Raw {
  const definition = valid();
  delete definition[key];
  return definition;
}

function problemsOf(json: unknown): Array<[string | undefined, string]> {
  try {
    parseToolDefinition(json);
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationFailedError);
    const failure = error as ValidationFailedError;
    expect(failure.status).toBe(422);
    expect(failure.code).toBe('tool_definition_invalid');
    return failure.details.map((d) => [d.field, String(d.code)]);
  }
  throw new Error('expected the definition to be rejected');
}

describe('parseToolDefinition', () => {
  it('accepts a complete read-only definition and normalizes it', () => {
    const definition = parseToolDefinition(
      valid({
        endpoint: 'https://TOOLS.example.com:443/order-status',
        allowed_link_hosts: ['Track.Example.COM.'],
      }),
    );
    expect(definition.key).toBe('order_status');
    expect(definition.endpoint).toBe('https://tools.example.com/order-status');
    expect(definition.allowed_link_hosts).toEqual(['track.example.com']);
    expect(definition.linkable_fields).toEqual(['tracking_url', 'shipments[].link']);
    expect(definition.read_only).toBe(true);
    expect(definition.requires_approval).toBe(false);
    expect(definition.output_schema.properties.tracking_url.type).toEqual(['string', 'null']);
  });

  it('is idempotent: a parsed definition parses to itself', () => {
    const once = parseToolDefinition(valid());
    expect(parseToolDefinition(JSON.parse(JSON.stringify(once)))).toEqual(once);
  });

  it('defaults linkable_fields and allowed_link_hosts to empty lists', () => {
    const definition = parseToolDefinition(
      valid({
        linkable_fields: undefined,
        allowed_link_hosts: undefined,
        output_schema: obj({ status: str() }),
      }),
    );
    expect(definition.linkable_fields).toEqual([]);
    expect(definition.allowed_link_hosts).toEqual([]);
  });

  it.each([
    'http://localhost:4010/tool',
    'http://127.0.0.1:4010/tool',
    'http://[::1]:4010/tool',
    'http://api.localhost/x',
  ])('accepts plain http only for loopback hosts: %s', (endpoint) =>
    expect(parseToolDefinition(valid({ endpoint })).endpoint).toBe(new URL(endpoint).href),
  );

  const REJECTED: Array<[string, unknown, string, string]> = [
    ['upper-case key', valid({ key: 'OrderStatus' }), 'key', 'invalid_value'],
    ['key starting with a digit', valid({ key: '1order' }), 'key', 'invalid_value'],
    ['key longer than 63', valid({ key: `a${'b'.repeat(63)}` }), 'key', 'invalid_value'],
    ['blank description', valid({ description: '   ' }), 'description', 'invalid_value'],
    ['description over 1000', valid({ description: 'x'.repeat(1001) }), 'description', 'invalid_value'],
    [
      'http endpoint on a public host',
      valid({ endpoint: 'http://tools.example.com/x' }),
      'endpoint',
      'insecure_endpoint',
    ],
    [
      'http endpoint on a private IP',
      valid({ endpoint: 'http://10.0.0.5/x' }),
      'endpoint',
      'insecure_endpoint',
    ],
    ['ftp endpoint', valid({ endpoint: 'ftp://tools.example.com/x' }), 'endpoint', 'invalid_value'],
    ['relative endpoint', valid({ endpoint: '/order-status' }), 'endpoint', 'invalid_value'],
    [
      'endpoint with user info',
      valid({ endpoint: 'https://u:p@tools.example.com/x' }),
      'endpoint',
      'endpoint_credentials',
    ],
    [
      'endpoint with a token parameter',
      valid({ endpoint: 'https://tools.example.com/x?token=abc' }),
      'endpoint',
      'endpoint_credentials',
    ],
    [
      'endpoint with a fragment',
      valid({ endpoint: 'https://tools.example.com/x#f' }),
      'endpoint',
      'invalid_value',
    ],
    ['timeout below 100', valid({ timeout_ms: 99 }), 'timeout_ms', 'invalid_value'],
    ['timeout above 30000', valid({ timeout_ms: 30_001 }), 'timeout_ms', 'invalid_value'],
    ['fractional timeout', valid({ timeout_ms: 1500.5 }), 'timeout_ms', 'invalid_value'],
    ['timeout as a string', valid({ timeout_ms: '3000' }), 'timeout_ms', 'invalid_value'],
    ['write-risk tool', valid({ read_only: false }), 'read_only', 'write_risk'],
    ['read_only missing', without('read_only'), 'read_only', 'required'],
    ['approval-required tool', valid({ requires_approval: true }), 'requires_approval', 'approval_required'],
    ['requires_approval missing', without('requires_approval'), 'requires_approval', 'required'],
    ['unknown top-level key', valid({ method: 'DELETE' }), 'method', 'unknown_key'],
    ['input_schema missing', without('input_schema'), 'input_schema', 'invalid_schema'],
    [
      'linkable field not in the schema',
      valid({ linkable_fields: ['tracking'] }),
      'linkable_fields.0',
      'unknown_linkable_field',
    ],
    [
      'linkable field that is not a string',
      valid({ linkable_fields: ['parcels'] }),
      'linkable_fields.0',
      'unknown_linkable_field',
    ],
    [
      'linkable array path without []',
      valid({ linkable_fields: ['shipments.link'] }),
      'linkable_fields.0',
      'unknown_linkable_field',
    ],
    [
      'duplicate linkable field',
      valid({ linkable_fields: ['tracking_url', 'tracking_url'] }),
      'linkable_fields.1',
      'invalid_value',
    ],
    ['linkable fields without hosts', valid({ allowed_link_hosts: [] }), 'allowed_link_hosts', 'required'],
    [
      'host with a scheme',
      valid({ allowed_link_hosts: ['https://track.example.com'] }),
      'allowed_link_hosts.0',
      'invalid_host',
    ],
    [
      'host with a port',
      valid({ allowed_link_hosts: ['track.example.com:8443'] }),
      'allowed_link_hosts.0',
      'invalid_host',
    ],
    [
      'wildcard host',
      valid({ allowed_link_hosts: ['*.example.com'] }),
      'allowed_link_hosts.0',
      'invalid_host',
    ],
    ['IP host', valid({ allowed_link_hosts: ['93.184.216.34'] }), 'allowed_link_hosts.0', 'invalid_host'],
    ['loopback host', valid({ allowed_link_hosts: ['localhost'] }), 'allowed_link_hosts.0', 'invalid_host'],
    ['internal host', valid({ allowed_link_hosts: ['wiki.corp'] }), 'allowed_link_hosts.0', 'invalid_host'],
    [
      'uri field that is not linkable',
      valid({
        output_schema: obj({ link: str({ format: 'uri' }) }),
        linkable_fields: [],
        allowed_link_hosts: [],
      }),
      'linkable_fields',
      'uri_field_not_linkable',
    ],
    [
      'secret-bearing output field',
      valid({ output_schema: obj({ status: str(), access_token: str() }), linkable_fields: [] }),
      'output_schema.properties.access_token',
      'secret_field',
    ],
    [
      'unbounded nested array string',
      valid({ output_schema: obj({ items: arr(arr({ type: 'string' })) }), linkable_fields: [] }),
      'output_schema.properties.items.items.items.maxLength',
      'unbounded',
    ],
  ];

  it.each(REJECTED)('rejects %s', (_name, json, field, code) => {
    expect(problemsOf(json)).toContainEqual([field, code]);
  });

  it('rejects a definition that is not an object', () => {
    expect(problemsOf([valid()])).toEqual([[undefined, 'invalid_value']]);
  });

  it('lists every problem at once and names paths in the message', () => {
    const json = valid({
      key: 'Bad Key',
      read_only: false,
      requires_approval: true,
      output_schema: obj({ password: { type: 'string' } }),
      linkable_fields: [],
    });
    const problems = problemsOf(json);
    expect(problems).toEqual(
      expect.arrayContaining([
        ['key', 'invalid_value'],
        ['read_only', 'write_risk'],
        ['requires_approval', 'approval_required'],
        ['output_schema.properties.password', 'secret_field'],
        ['output_schema.properties.password.maxLength', 'unbounded'],
      ]),
    );
    try {
      parseToolDefinition(json);
    } catch (error) {
      expect((error as Error).message).toMatch(
        /^tool definition rejected: key: .*; read_only: write-risk tools are not supported/,
      );
      expect((error as Error).message).toMatch(/and 2 more$/);
    }
  });

  it('exposes the same problems without throwing through checkToolDefinition', () => {
    const { definition, problems } = checkToolDefinition(valid({ read_only: false }));
    expect(definition).toBeNull();
    expect(problems).toEqual([
      {
        field: 'read_only',
        code: 'write_risk',
        message: 'write-risk tools are not supported: read_only must be true',
      },
    ]);
  });
});

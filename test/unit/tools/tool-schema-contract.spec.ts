import {
  checkToolSchema,
  listSchemaFields,
  type ToolSchemaRole,
} from '../../../src/tools/tool-schema-contract';
import { TOOL_SCHEMA_LIMITS } from '../../../src/tools/tool-schema-types';
import { arr, bool, int, nested, num, O, obj, P, str, type Raw } from './schema-builders';

const manyProperties = (count: number): Raw =>
  obj(Object.fromEntries(Array.from({ length: count }, (_, i) => [`f${i}`, bool()])));

/** [case, schema, role] for schemas the contract accepts. */
const ACCEPTED: Array<[string, unknown, ToolSchemaRole]> = [
  [
    'order status',
    obj(
      { status: str({ enum: ['pending', 'shipped'] }), eta: str({ format: 'date' }), count: int() },
      { required: ['status'] },
    ),
    'output',
  ],
  ['nullable string', obj({ note: str({ type: ['string', 'null'] }) }), 'output'],
  ['null-first union', obj({ qty: int({ type: ['null', 'integer'] }) }), 'output'],
  [
    'array of closed objects',
    obj({ items: arr(obj({ sku: str(), qty: int() }, { required: ['sku'] })) }),
    'output',
  ],
  ['fractional number bounds', obj({ weight: num({ minimum: -0.5, maximum: 99.75 }) }), 'output'],
  ['boolean', obj({ in_stock: bool() }), 'output'],
  ['empty closed object', obj({}), 'output'],
  [
    'annotations',
    obj({ a: str({ title: 'A', description: 'the a' }) }, { title: 'Root', description: 'root' }),
    'output',
  ],
  [
    'date-time and uri formats',
    obj({ at: str({ format: 'date-time' }), link: str({ format: 'uri', maxLength: 500 }) }),
    'output',
  ],
  [
    'enum with null when nullable',
    obj({ s: str({ type: ['string', 'null'], enum: ['a', null] }) }),
    'output',
  ],
  ['integer enum within bounds', obj({ n: int({ enum: [1, 2, 3] }) }), 'output'],
  ['minLength and minItems', obj({ tags: arr(str({ minLength: 1 }), { minItems: 1 }) }), 'output'],
  ['exactly the maximum depth', nested(TOOL_SCHEMA_LIMITS.maxDepth), 'output'],
  ['exactly the maximum property count', manyProperties(TOOL_SCHEMA_LIMITS.maxTotalProperties), 'output'],
  ['secret-looking names are allowed in INPUT schemas', obj({ password: str() }), 'input'],
  [
    'ordinary names that contain secret words as substrings',
    obj({ author: str(), secretary: str(), key: str() }),
    'output',
  ],
  ['maxItems 0', obj({ none: arr(bool(), { maxItems: 0 }) }), 'output'],
];

const tooLarge = obj({ rows: arr(arr(str({ maxLength: 10_000 }), { maxItems: 100 }), { maxItems: 100 }) });

/** [case, schema, role, expected code, expected field] for schemas the contract rejects. */
const REJECTED: Array<[string, unknown, ToolSchemaRole, string, string]> = [
  [
    'root without additionalProperties',
    { type: 'object', properties: {} },
    'output',
    'not_closed',
    `${O}.additionalProperties`,
  ],
  [
    'nested additionalProperties true',
    obj({ a: obj({}, { additionalProperties: true }) }),
    'output',
    'not_closed',
    `${P('a')}.additionalProperties`,
  ],
  [
    'additionalProperties as a schema',
    obj({ a: obj({}, { additionalProperties: str() }) }),
    'output',
    'not_closed',
    `${P('a')}.additionalProperties`,
  ],
  [
    'string without maxLength',
    obj({ name: { type: 'string' } }),
    'output',
    'unbounded',
    `${P('name')}.maxLength`,
  ],
  [
    'maxLength above the bound',
    obj({ name: str({ maxLength: 10_001 }) }),
    'output',
    'invalid_keyword',
    `${P('name')}.maxLength`,
  ],
  [
    'minLength above maxLength',
    obj({ name: str({ minLength: 101 }) }),
    'output',
    'invalid_keyword',
    `${P('name')}.minLength`,
  ],
  [
    'array without maxItems',
    obj({ tags: { type: 'array', items: str() } }),
    'output',
    'unbounded',
    `${P('tags')}.maxItems`,
  ],
  [
    'array items of an array without maxLength',
    obj({ items: arr(arr({ type: 'string' })) }),
    'output',
    'unbounded',
    `${P('items')}.items.items.maxLength`,
  ],
  [
    'array items that are not a schema',
    obj({ items: arr(true) }),
    'output',
    'invalid_schema',
    `${P('items')}.items`,
  ],
  [
    'array without items',
    obj({ tags: { type: 'array', maxItems: 3 } }),
    'output',
    'invalid_keyword',
    `${P('tags')}.items`,
  ],
  [
    'tuple-form items',
    obj({ pair: arr([str(), str()]) }),
    'output',
    'unsupported_keyword',
    `${P('pair')}.items`,
  ],
  [
    'integer without minimum',
    obj({ n: { type: 'integer', maximum: 5 } }),
    'output',
    'unbounded',
    `${P('n')}.minimum`,
  ],
  [
    'number without maximum',
    obj({ n: { type: 'number', minimum: 0 } }),
    'output',
    'unbounded',
    `${P('n')}.maximum`,
  ],
  [
    'minimum above maximum',
    obj({ n: int({ minimum: 11 }) }),
    'output',
    'invalid_keyword',
    `${P('n')}.minimum`,
  ],
  [
    'integer bound beyond 2^53',
    obj({ n: int({ maximum: 2 ** 60 }) }),
    'output',
    'invalid_keyword',
    `${P('n')}.maximum`,
  ],
  ['root is an array', arr(str()), 'output', 'unsupported_type', `${O}.type`],
  ['root is nullable', obj({}, { type: ['object', 'null'] }), 'output', 'unsupported_type', `${O}.type`],
  [
    'one level too deep',
    nested(TOOL_SCHEMA_LIMITS.maxDepth + 1),
    'output',
    'too_deep',
    P(...Array(6).fill('child')),
  ],
  [
    'one property too many',
    manyProperties(TOOL_SCHEMA_LIMITS.maxTotalProperties + 1),
    'output',
    'too_many_properties',
    P('f200'),
  ],
  ['worst-case value too large', tooLarge, 'output', 'too_large', O],
  [
    'properties missing',
    { type: 'object', additionalProperties: false },
    'input',
    'invalid_keyword',
    'input_schema.properties',
  ],
];

describe('tool schema contract', () => {
  it.each(ACCEPTED)('accepts: %s', (_name, schema, role) => {
    const result = checkToolSchema(schema, role === 'input' ? 'input_schema' : O, role);
    expect(result.problems).toEqual([]);
    expect(result.schema).not.toBeNull();
  });

  it.each(REJECTED)('rejects: %s', (_name, schema, role, code, field) => {
    const result = checkToolSchema(schema, role === 'input' ? 'input_schema' : O, role);
    expect(result.schema).toBeNull();
    expect(result.problems).toContainEqual(expect.objectContaining({ code, field }));
    for (const problem of result.problems) expect(problem.message.length).toBeGreaterThan(0);
  });

  it('has at least 25 table cases (more in tool-schema-keywords.spec.ts)', () => {
    expect(ACCEPTED.length + REJECTED.length).toBeGreaterThanOrEqual(25);
  });

  it('reports every problem of a schema, not only the first', () => {
    const { problems } = checkToolSchema(
      {
        type: 'object',
        properties: { a: { type: 'string' }, b: { type: 'array', items: str() }, c: { oneOf: [] } },
      },
      O,
      'output',
    );
    expect(problems.map((p) => [p.code, p.field])).toEqual(
      expect.arrayContaining([
        ['not_closed', `${O}.additionalProperties`],
        ['unbounded', `${P('a')}.maxLength`],
        ['unbounded', `${P('b')}.maxItems`],
        ['unsupported_keyword', `${P('c')}.oneOf`],
        ['unsupported_type', `${P('c')}.type`],
      ]),
    );
  });

  it('normalizes nullable types to [type, "null"] and keeps a re-checkable schema', () => {
    const raw = obj(
      { qty: int({ type: ['null', 'integer'] }), s: str({ description: 'd' }) },
      { required: ['s'] },
    );
    const { schema } = checkToolSchema(raw, O, 'output');
    expect(schema?.properties.qty.type).toEqual(['integer', 'null']);
    expect(schema?.required).toEqual(['s']);
    const again = checkToolSchema(JSON.parse(JSON.stringify(schema)), O, 'output');
    expect(again.schema).toEqual(schema);
  });

  it('lists field paths with [] for array items', () => {
    const { schema } = checkToolSchema(
      obj({ a: obj({ b: str() }), list: arr(obj({ url: str() })) }),
      O,
      'output',
    );
    expect(listSchemaFields(schema!).map((f) => f.path)).toEqual([
      'a',
      'a.b',
      'list',
      'list[]',
      'list[].url',
    ]);
  });
});

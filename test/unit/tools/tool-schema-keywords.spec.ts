import { checkToolSchema } from '../../../src/tools/tool-schema-contract';
import { arr, int, obj, O, P, str, type Raw } from './schema-builders';

/** [case, schema, expected code, expected field]: keywords, types, enums, names and secrets the contract refuses. */
const REJECTED: Array<[string, unknown, string, string]> = [
  ['oneOf', obj({ a: { oneOf: [str(), int()] } }), 'unsupported_keyword', `${P('a')}.oneOf`],
  ['anyOf beside a type', obj({ a: str({ anyOf: [str()] }) }), 'unsupported_keyword', `${P('a')}.anyOf`],
  ['$ref', obj({ a: { $ref: '#/$defs/x' } }), 'unsupported_keyword', `${P('a')}.$ref`],
  [
    '$schema at the root',
    obj({}, { $schema: 'https://json-schema.org/draft/2020-12/schema' }),
    'unsupported_keyword',
    `${O}.$schema`,
  ],
  ['pattern', obj({ sku: str({ pattern: '^(a+)+$' }) }), 'unsupported_keyword', `${P('sku')}.pattern`],
  [
    'patternProperties',
    obj({}, { patternProperties: { '^x': str() } }),
    'unsupported_keyword',
    `${O}.patternProperties`,
  ],
  [
    'uniqueItems',
    obj({ t: arr(str(), { uniqueItems: true }) }),
    'unsupported_keyword',
    `${P('t')}.uniqueItems`,
  ],
  [
    'exclusiveMaximum',
    obj({ n: int({ exclusiveMaximum: 5 }) }),
    'unsupported_keyword',
    `${P('n')}.exclusiveMaximum`,
  ],
  ['default', obj({ s: str({ default: 'x' }) }), 'unsupported_keyword', `${P('s')}.default`],
  ['a keyword of another type', obj({ s: str({ minimum: 1 }) }), 'unsupported_keyword', `${P('s')}.minimum`],
  ['format email', obj({ e: str({ format: 'email' }) }), 'unsupported_keyword', `${P('e')}.format`],
  [
    'a union of two types',
    obj({ u: { type: ['string', 'integer'], maxLength: 3 } }),
    'unsupported_type',
    `${P('u')}.type`,
  ],
  ['type null alone', obj({ u: { type: 'null' } }), 'unsupported_type', `${P('u')}.type`],
  ['missing type', obj({ u: { maxLength: 3 } }), 'unsupported_type', `${P('u')}.type`],
  ['boolean schema', obj({ u: true }), 'invalid_schema', P('u')],
  ['property name with a dot', obj({ 'a.b': str() }), 'invalid_property_name', P('a.b')],
  [
    '__proto__ property',
    obj(JSON.parse('{"__proto__": {"type": "string", "maxLength": 5}}') as Raw),
    'invalid_property_name',
    P('__proto__'),
  ],
  ['secret output field: password', obj({ password: str() }), 'secret_field', P('password')],
  ['secret output field: apiKey', obj({ apiKey: str() }), 'secret_field', P('apiKey')],
  [
    'secret output field nested in array items',
    obj({ users: arr(obj({ sessionId: str() })) }),
    'secret_field',
    `${P('users')}.items.properties.sessionId`,
  ],
  [
    'enum value longer than maxLength',
    obj({ s: str({ maxLength: 3, enum: ['ok', 'toolong'] }) }),
    'invalid_keyword',
    `${P('s')}.enum`,
  ],
  ['enum value of the wrong type', obj({ n: int({ enum: [1, '2'] }) }), 'invalid_keyword', `${P('n')}.enum`],
  [
    'enum with null when not nullable',
    obj({ s: str({ enum: ['a', null] }) }),
    'invalid_keyword',
    `${P('s')}.enum`,
  ],
  ['duplicate enum values', obj({ s: str({ enum: ['a', 'a'] }) }), 'invalid_keyword', `${P('s')}.enum`],
  ['empty enum', obj({ s: str({ enum: [] }) }), 'invalid_keyword', `${P('s')}.enum`],
  [
    'required names an undeclared property',
    obj({ a: str() }, { required: ['b'] }),
    'invalid_keyword',
    `${O}.required`,
  ],
  [
    'description too long',
    obj({ a: str({ description: 'x'.repeat(1001) }) }),
    'invalid_keyword',
    `${P('a')}.description`,
  ],
];

describe('tool schema contract: keywords, types and names', () => {
  it.each(REJECTED)('rejects: %s', (_name, schema, code, field) => {
    const result = checkToolSchema(schema, O, 'output');
    expect(result.schema).toBeNull();
    expect(result.problems).toContainEqual(expect.objectContaining({ code, field }));
  });

  it('names the unsupported keyword and explains why pattern is refused', () => {
    const { problems } = checkToolSchema(obj({ sku: str({ pattern: '^a$' }) }), O, 'output');
    expect(problems[0].message).toMatch(/"pattern" is not a supported keyword: regular expressions/);
  });

  it('does not read hints from Object.prototype for a keyword named constructor', () => {
    const { problems } = checkToolSchema(obj({}, { constructor: 1 }), O, 'output');
    expect(problems).toEqual([
      {
        field: `${O}.constructor`,
        code: 'unsupported_keyword',
        message: '"constructor" is not a supported keyword',
      },
    ]);
  });

  it('checks secret-bearing names only in output schemas', () => {
    expect(checkToolSchema(obj({ password: str() }), 'input_schema', 'input').problems).toEqual([]);
    expect(checkToolSchema(obj({ password: str() }), O, 'output').problems[0].code).toBe('secret_field');
  });
});

/**
 * The shared strict tool contract for input and output schemas (interface §4.6 rule 10: "recursively bounded and
 * closed", "unsupported … constraint keywords are rejected and every accepted constraint is enforced").
 *
 * Supported subset of JSON Schema (everything else is rejected with `unsupported_keyword` naming its path):
 * - every schema: `type` (required), `title` (≤ 200 chars), `description` (≤ 1000 chars);
 * - `type` is one of object, array, string, integer, number, boolean, or a pair of one of them with "null"
 *   (`["string", "null"]`, normalized to that order). No other unions; a bare "null" type is refused;
 * - object: `properties` (required, may be empty), `required` (declared names, no duplicates),
 *   `additionalProperties: false` (mandatory on every object: `not_closed` otherwise);
 * - array: `items` (one schema; tuple form refused), `maxItems` (mandatory, ≤ 1000), `minItems`;
 * - string: `maxLength` (mandatory, 1–10000 code points), `minLength`, `format` (`date-time`, `date`, `uri` only),
 *   `enum` (≤ 100 distinct strings; `null` only when the type admits null);
 * - integer / number: `minimum` and `maximum` (both mandatory, inclusive, finite; integers within ±2^53-1),
 *   `enum` (≤ 100 distinct numbers);
 * - boolean: nothing else.
 * Refused on purpose: `pattern` (an operator-supplied regex runs on V8's backtracking engine against up to 10000
 * characters and cannot be proven free of catastrophic backtracking, so it is not accepted rather than enforced
 * unsafely), `exclusiveMinimum`/`exclusiveMaximum`/`multipleOf`, `uniqueItems`, `const`, `default`, `examples`,
 * `$ref`/`$defs`/`$schema`/`$id`, combinators (`oneOf`, `anyOf`, `allOf`, `not`, `if`/`then`/`else`),
 * `patternProperties`, `propertyNames`, `dependent*`, `unevaluated*`, `additionalItems`, `prefixItems`,
 * `contains`, `min/maxProperties` and any unknown keyword. Enum values must satisfy the schema's other constraints.
 *
 * Recursive bounds: the root is a non-nullable object; at most 6 nesting levels (root = 1); at most 200
 * properties in total; property names match PROPERTY_NAME; and the worst-case JSON size of a valid value
 * (every string at maxLength, every array at maxItems) is at most 200,000 characters.
 * Output schemas additionally refuse secret-bearing property names at any depth (tool-secret-fields.ts).
 *
 * Why not ajv: it is only a transitive dependency here, it accepts far more than this subset (we would still
 * need a contract checker), and its error paths are JSON pointers into the value, not the schema paths and
 * customer-safe reasons this contract reports. The subset is small enough to validate by hand (tool-value.ts).
 */
import { maxValueChars } from './tool-schema-fields';
import {
  annotation,
  boundedInt,
  parseNumber,
  parseEnum,
  parseString,
  report,
  type SchemaContext,
  type ToolSchemaProblem,
  type ToolSchemaRole,
} from './tool-schema-keywords';
import {
  TOOL_SCHEMA_LIMITS as LIMITS,
  PROPERTY_NAME,
  baseType,
  isNullable,
  isPlainObject,
  type ToolObjectSchema,
  type ToolSchema,
  type ToolValueType,
} from './tool-schema-types';
import { secretFieldReason } from './tool-secret-fields';

export type { ToolSchemaProblem, ToolSchemaProblemCode, ToolSchemaRole } from './tool-schema-keywords';
export { listSchemaFields, maxValueChars } from './tool-schema-fields';

const ANNOTATIONS: readonly string[] = ['type', 'title', 'description'];
const KEYWORDS: Record<ToolValueType, readonly string[]> = {
  object: ['properties', 'required', 'additionalProperties'],
  array: ['items', 'minItems', 'maxItems'],
  string: ['minLength', 'maxLength', 'format', 'enum'],
  integer: ['minimum', 'maximum', 'enum'],
  number: ['minimum', 'maximum', 'enum'],
  boolean: [],
};
const TYPE_NAMES = Object.keys(KEYWORDS) as ToolValueType[];
const KNOWN_KEYWORDS = new Set([...ANNOTATIONS, ...Object.values(KEYWORDS).flat()]);
const HINTS: Record<string, string> = {
  pattern: 'regular expressions are not accepted (backtracking risk); use enum, format or maxLength',
  $ref: 'inline the referenced schema',
  patternProperties: 'declare every property',
  additionalProperties: 'only additionalProperties: false is accepted',
  uniqueItems: 'not enforced by this contract',
};

type Context = SchemaContext;

function parseType(raw: Record<string, unknown>, path: string, ctx: Context): ToolSchema['type'] | null {
  const type = raw.type;
  const known = (value: unknown): value is ToolValueType => TYPE_NAMES.includes(value as ToolValueType);
  if (known(type)) return type;
  if (Array.isArray(type) && type.length === 2 && type.includes('null')) {
    const other: unknown = type[0] === 'null' ? type[1] : type[0];
    if (known(other)) return [other, 'null'] as ToolSchema['type'];
  }
  const what = type === undefined ? 'type is required' : 'unsupported type';
  return report(
    ctx,
    `${path}.type`,
    'unsupported_type',
    `${what}: use one of ${TYPE_NAMES.join(', ')}, or [type, "null"]`,
  );
}

function checkKeywords(
  raw: Record<string, unknown>,
  path: string,
  base: ToolValueType | null,
  ctx: Context,
): void {
  for (const key of Object.keys(raw)) {
    if (base === null ? KNOWN_KEYWORDS.has(key) : ANNOTATIONS.includes(key) || KEYWORDS[base].includes(key))
      continue;
    const hint = Object.hasOwn(HINTS, key) ? `: ${HINTS[key]}` : '';
    const message =
      KNOWN_KEYWORDS.has(key) && base !== null
        ? `"${key}" does not apply to type ${base}`
        : `"${key}" is not a supported keyword${hint}`;
    report(ctx, `${path}.${key}`, 'unsupported_keyword', message);
  }
}

function parseObject(raw: Record<string, unknown>, path: string, depth: number, ctx: Context) {
  if (raw.additionalProperties !== false) {
    report(
      ctx,
      `${path}.additionalProperties`,
      'not_closed',
      'every object must declare additionalProperties: false',
    );
  }
  const properties: Record<string, ToolSchema> = {};
  if (!isPlainObject(raw.properties)) {
    report(
      ctx,
      `${path}.properties`,
      'invalid_keyword',
      'objects must declare properties (an object, may be empty)',
    );
  } else {
    for (const [name, child] of Object.entries(raw.properties)) {
      const childPath = `${path}.properties.${name}`;
      if (++ctx.totalProperties === LIMITS.maxTotalProperties + 1) {
        report(
          ctx,
          childPath,
          'too_many_properties',
          `a schema may declare at most ${LIMITS.maxTotalProperties} properties`,
        );
      }
      if (!PROPERTY_NAME.test(name)) {
        report(
          ctx,
          childPath,
          'invalid_property_name',
          'property names must match ^[A-Za-z][A-Za-z0-9_]{0,63}$',
        );
        continue;
      }
      const secret = ctx.role === 'output' ? secretFieldReason(name) : null;
      if (secret !== null) {
        report(
          ctx,
          childPath,
          'secret_field',
          `secret-bearing output field (matches "${secret}") is forbidden`,
        );
      }
      const parsed = parseNode(child, childPath, depth + 1, ctx);
      if (parsed !== null) properties[name] = parsed;
    }
  }
  const required: string[] = [];
  if (raw.required !== undefined) {
    const names = Array.isArray(raw.required) ? (raw.required as unknown[]) : [null];
    for (const name of names) {
      if (typeof name !== 'string' || required.includes(name)) {
        report(ctx, `${path}.required`, 'invalid_keyword', 'required must list distinct property names');
      } else if (!isPlainObject(raw.properties) || !Object.hasOwn(raw.properties, name)) {
        report(ctx, `${path}.required`, 'invalid_keyword', `required names an undeclared property "${name}"`);
      } else {
        required.push(name);
      }
    }
  }
  return { properties, required, additionalProperties: false as const };
}

function parseArray(raw: Record<string, unknown>, path: string, depth: number, ctx: Context) {
  let items: ToolSchema | null = null;
  if (Array.isArray(raw.items)) {
    report(
      ctx,
      `${path}.items`,
      'unsupported_keyword',
      'tuple-form items are not supported: give one schema',
    );
  } else if (raw.items === undefined) {
    report(ctx, `${path}.items`, 'invalid_keyword', 'arrays must declare items (one schema)');
  } else {
    items = parseNode(raw.items, `${path}.items`, depth + 1, ctx);
  }
  const maxItems = boundedInt(raw, 'maxItems', path, ctx, {
    min: 0,
    max: LIMITS.maxItems,
    required: true,
    what: 'arrays',
  });
  const minItems = boundedInt(raw, 'minItems', path, ctx, {
    min: 0,
    max: maxItems ?? 0,
    required: false,
    what: '',
  });
  return {
    items: items as ToolSchema,
    maxItems: maxItems ?? 0,
    ...(minItems === undefined ? {} : { minItems }),
  };
}

function parseNode(raw: unknown, path: string, depth: number, ctx: Context): ToolSchema | null {
  if (!isPlainObject(raw)) return report(ctx, path, 'invalid_schema', 'a schema must be a JSON object');
  if (depth > LIMITS.maxDepth)
    return report(ctx, path, 'too_deep', `schemas nest at most ${LIMITS.maxDepth} levels`);
  const type = parseType(raw, path, ctx);
  const base = type === null ? null : Array.isArray(type) ? type[0] : type;
  checkKeywords(raw, path, base, ctx);
  if (type === null || base === null) return null;
  const annotations = {
    ...annotation(raw, 'title', LIMITS.maxTitleLength, path, ctx),
    ...annotation(raw, 'description', LIMITS.maxDescriptionLength, path, ctx),
  };
  if (base === 'object') return { type, ...annotations, ...parseObject(raw, path, depth, ctx) } as ToolSchema;
  if (base === 'array') return { type, ...annotations, ...parseArray(raw, path, depth, ctx) } as ToolSchema;
  if (base === 'boolean') return { type, ...annotations } as ToolSchema;
  const before = ctx.problems.length;
  const constraints =
    base === 'string' ? parseString(raw, path, ctx) : parseNumber(raw, path, base === 'integer', ctx);
  const schema = { type, ...annotations, ...constraints } as ToolSchema;
  return { ...schema, ...parseEnum(raw, schema, path, ctx, ctx.problems.length === before) };
}

/**
 * Checks one input or output schema against the contract. Returns the normalized schema when there is no problem;
 * otherwise `schema` is null and `problems` lists every problem found (paths start with `path`).
 */
export function checkToolSchema(
  raw: unknown,
  path: string,
  role: ToolSchemaRole,
): { schema: ToolObjectSchema | null; problems: ToolSchemaProblem[] } {
  const ctx: Context = { role, problems: [], totalProperties: 0 };
  const schema = parseNode(raw, path, 1, ctx);
  if (schema !== null && (baseType(schema) !== 'object' || isNullable(schema))) {
    report(ctx, `${path}.type`, 'unsupported_type', `the root of the ${role} schema must be type "object"`);
  }
  if (ctx.problems.length === 0 && schema !== null && maxValueChars(schema) > LIMITS.maxValueChars) {
    report(
      ctx,
      path,
      'too_large',
      `a valid value could reach ${maxValueChars(schema)} JSON characters; the bound is ${LIMITS.maxValueChars}: lower maxItems or maxLength`,
    );
  }
  return ctx.problems.length === 0
    ? { schema: schema as ToolObjectSchema, problems: [] }
    : { schema: null, problems: ctx.problems };
}

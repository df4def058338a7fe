/**
 * Keyword-level checks of the strict tool contract (tool-schema-contract.ts): annotations, integer and number
 * bounds, string keywords and `enum`. Each reports problems into the shared context and returns the normalized
 * keyword values.
 */
import { TOOL_SCHEMA_LIMITS as LIMITS, type ToolSchema, type ToolStringFormat } from './tool-schema-types';
import { validateToolValue } from './tool-value';

export type ToolSchemaRole = 'input' | 'output';

export type ToolSchemaProblemCode =
  | 'invalid_schema'
  | 'unsupported_keyword'
  | 'invalid_keyword'
  | 'unsupported_type'
  | 'not_closed'
  | 'unbounded'
  | 'too_deep'
  | 'too_many_properties'
  | 'too_large'
  | 'invalid_property_name'
  | 'secret_field';

/** One problem; `field` is the schema path, e.g. `output_schema.properties.items.items.maxLength`. */
export interface ToolSchemaProblem {
  field: string;
  code: ToolSchemaProblemCode;
  message: string;
}

export const STRING_FORMATS: readonly string[] = ['date-time', 'date', 'uri'];

export interface SchemaContext {
  role: ToolSchemaRole;
  problems: ToolSchemaProblem[];
  totalProperties: number;
}

export function report(
  ctx: SchemaContext,
  field: string,
  code: ToolSchemaProblemCode,
  message: string,
): null {
  ctx.problems.push({ field, code, message });
  return null;
}

export function annotation(
  raw: Record<string, unknown>,
  key: 'title' | 'description',
  max: number,
  path: string,
  ctx: SchemaContext,
) {
  const value = raw[key];
  if (value === undefined) return {};
  if (typeof value === 'string' && value.length <= max) return { [key]: value };
  report(ctx, `${path}.${key}`, 'invalid_keyword', `${key} must be a string of at most ${max} characters`);
  return {};
}

interface IntBounds {
  min: number;
  max: number;
  required: boolean;
  what: string;
}

export function boundedInt(
  raw: Record<string, unknown>,
  key: string,
  path: string,
  ctx: SchemaContext,
  b: IntBounds,
) {
  const value = raw[key];
  if (value === undefined) {
    if (b.required)
      report(ctx, `${path}.${key}`, 'unbounded', `${b.what} must declare ${key} (${b.min}–${b.max})`);
    return undefined;
  }
  if (typeof value === 'number' && Number.isInteger(value) && value >= b.min && value <= b.max) return value;
  report(ctx, `${path}.${key}`, 'invalid_keyword', `${key} must be an integer from ${b.min} to ${b.max}`);
  return undefined;
}

function numberBound(
  raw: Record<string, unknown>,
  key: string,
  path: string,
  integer: boolean,
  ctx: SchemaContext,
) {
  const value = raw[key];
  const limit = integer ? Number.MAX_SAFE_INTEGER : Number.MAX_VALUE;
  if (value === undefined) {
    report(
      ctx,
      `${path}.${key}`,
      'unbounded',
      `${integer ? 'integer' : 'number'} schemas must declare ${key}`,
    );
  } else if (typeof value !== 'number' || !Number.isFinite(value) || Math.abs(value) > limit) {
    report(
      ctx,
      `${path}.${key}`,
      'invalid_keyword',
      `${key} must be a finite number${integer ? ' within ±(2^53-1)' : ''}`,
    );
  } else {
    return value;
  }
  return undefined;
}

/** `minimum` and `maximum` of an integer or number schema: both mandatory, inclusive, minimum ≤ maximum. */
export function parseNumber(
  raw: Record<string, unknown>,
  path: string,
  integer: boolean,
  ctx: SchemaContext,
) {
  const minimum = numberBound(raw, 'minimum', path, integer, ctx);
  const maximum = numberBound(raw, 'maximum', path, integer, ctx);
  if (minimum !== undefined && maximum !== undefined && minimum > maximum) {
    report(ctx, `${path}.minimum`, 'invalid_keyword', 'minimum must not exceed maximum');
  }
  return { minimum: minimum ?? 0, maximum: maximum ?? 0 };
}

export function parseString(raw: Record<string, unknown>, path: string, ctx: SchemaContext) {
  const max = LIMITS.maxStringLength;
  const maxLength = boundedInt(raw, 'maxLength', path, ctx, { min: 1, max, required: true, what: 'strings' });
  const minLength = boundedInt(raw, 'minLength', path, ctx, {
    min: 0,
    max: maxLength ?? 0,
    required: false,
    what: '',
  });
  const format = raw.format;
  if (format !== undefined && !STRING_FORMATS.includes(format as string)) {
    report(
      ctx,
      `${path}.format`,
      'unsupported_keyword',
      `format must be one of ${STRING_FORMATS.join(', ')}`,
    );
  }
  return {
    maxLength: maxLength ?? 0,
    ...(minLength === undefined ? {} : { minLength }),
    ...(format === undefined ? {} : { format: format as ToolStringFormat }),
  };
}

/** `enum` of a string or number schema; each value is checked against the rest of the schema (when that is valid). */
export function parseEnum(
  raw: Record<string, unknown>,
  schema: ToolSchema,
  path: string,
  ctx: SchemaContext,
  checkValues: boolean,
) {
  const values = raw.enum;
  if (values === undefined) return {};
  const field = `${path}.enum`;
  if (!Array.isArray(values) || values.length === 0 || values.length > LIMITS.maxEnumValues) {
    report(ctx, field, 'invalid_keyword', `enum must list 1 to ${LIMITS.maxEnumValues} values`);
    return {};
  }
  if (new Set(values).size !== values.length)
    report(ctx, field, 'invalid_keyword', 'enum values must be distinct');
  if (checkValues && values.some((value: unknown) => validateToolValue(schema, value, field).length > 0)) {
    report(
      ctx,
      field,
      'invalid_keyword',
      "every enum value must satisfy the schema's type and other constraints",
    );
  }
  return { enum: values as never[] };
}

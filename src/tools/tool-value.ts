/**
 * Validates a JSON value against an accepted tool schema (tool-schema-contract.ts), enforcing every accepted
 * constraint: type (integers must be whole, numbers finite), null only for `[type, "null"]`, required properties,
 * closed objects (an undeclared property is a violation, never silently dropped), minItems/maxItems,
 * minLength/maxLength in Unicode code points, minimum/maximum (inclusive), enum, and format:
 * - `date`: `YYYY-MM-DD`, a real calendar date;
 * - `date-time`: RFC 3339 `YYYY-MM-DDTHH:MM:SS[.frac](Z|±HH:MM)`, a real date, hour ≤ 23, minute ≤ 59,
 *   second ≤ 60 (leap second);
 * - `uri`: an absolute URI (`scheme:…`, no whitespace) that WHATWG `URL` parses. Whether a URI may leave the
 *   service is decided separately (tool-output.ts).
 * Only plain JSON data passes: `undefined`, functions, NaN/Infinity and non-plain objects are `invalid_type`.
 * Messages never contain the value. At most MAX_VIOLATIONS are returned.
 */
import {
  PROPERTY_NAME,
  baseType,
  isNullable,
  isPlainObject,
  own,
  type ToolArraySchema,
  type ToolNumberSchema,
  type ToolObjectSchema,
  type ToolSchema,
  type ToolStringSchema,
} from './tool-schema-types';

export type ToolValueReason =
  | 'invalid_type'
  | 'missing_field'
  | 'unexpected_field'
  | 'too_long'
  | 'too_short'
  | 'too_many_items'
  | 'too_few_items'
  | 'out_of_range'
  | 'not_in_enum'
  | 'invalid_format';

/** One violation; `path` is the value path, e.g. `output.shipments[0].tracking_url`. */
export interface ToolValueViolation {
  path: string;
  reason: ToolValueReason;
  message: string;
}

export const MAX_VIOLATIONS = 20;

type Sink = ToolValueViolation[];

function add(out: Sink, path: string, reason: ToolValueReason, message: string): void {
  if (out.length < MAX_VIOLATIONS) out.push({ path, reason, message });
}

function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (isPlainObject(value)) return 'object';
  if (typeof value === 'number') return Number.isFinite(value) ? 'number' : 'non-finite number';
  if (typeof value === 'string' || typeof value === 'boolean') return typeof value;
  return 'non-JSON value';
}

/** Code points in `text`, counting at most `cap + 1`. */
function codePoints(text: string, cap: number): number {
  let count = 0;
  for (const _char of text) if (++count > cap) break;
  return count;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4}-\d{2}-\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?([Zz]|[+-](\d{2}):(\d{2}))$/;

function validDate(text: string): boolean {
  const match = DATE.exec(text);
  if (match === null) return false;
  const [year, month, day] = match.slice(1).map(Number);
  const days = new Date(Date.UTC(year, month, 0)).getUTCDate(); // day 0 of the next month = last day of this one
  return year >= 1 && month >= 1 && month <= 12 && day >= 1 && day <= days;
}

export function matchesFormat(format: ToolStringSchema['format'], text: string): boolean {
  if (format === 'date') return validDate(text);
  if (format === 'date-time') {
    const match = DATE_TIME.exec(text);
    if (match === null || !validDate(match[1])) return false;
    const [hour, minute, second] = match.slice(2, 5).map(Number);
    const offsetOk = match[7] === undefined || (Number(match[7]) <= 23 && Number(match[8]) <= 59);
    return hour <= 23 && minute <= 59 && second <= 60 && offsetOk;
  }
  if (format === 'uri') {
    if (!/^[A-Za-z][A-Za-z0-9+.-]*:\S+$/.test(text)) return false;
    try {
      new URL(text);
      return true;
    } catch {
      return false;
    }
  }
  return true;
}

function walkString(schema: ToolStringSchema, value: string, path: string, out: Sink): void {
  const length = codePoints(value, schema.maxLength);
  if (length > schema.maxLength) add(out, path, 'too_long', `longer than maxLength ${schema.maxLength}`);
  if (length < (schema.minLength ?? 0))
    add(out, path, 'too_short', `shorter than minLength ${schema.minLength}`);
  if (schema.format !== undefined && !matchesFormat(schema.format, value)) {
    add(out, path, 'invalid_format', `not a valid ${schema.format}`);
  }
}

function walkNumber(schema: ToolNumberSchema, value: number, path: string, out: Sink): void {
  if (baseType(schema) === 'integer' && !Number.isInteger(value)) {
    add(out, path, 'invalid_type', 'expected integer, got a fractional number');
  } else if (value < schema.minimum || value > schema.maximum) {
    add(out, path, 'out_of_range', `outside ${schema.minimum}..${schema.maximum}`);
  }
}

function walkObject(schema: ToolObjectSchema, value: Record<string, unknown>, path: string, out: Sink): void {
  for (const key of Object.keys(value)) {
    if (own(schema.properties, key) !== undefined) continue;
    const shown = PROPERTY_NAME.test(key) ? key : '<undeclared>';
    add(out, `${path}.${shown}`, 'unexpected_field', 'undeclared field (objects are closed)');
  }
  for (const name of schema.required) {
    if (!Object.hasOwn(value, name))
      add(out, `${path}.${name}`, 'missing_field', 'required field is missing');
  }
  for (const [name, child] of Object.entries(schema.properties)) {
    if (Object.hasOwn(value, name)) walk(child, value[name], `${path}.${name}`, out);
  }
}

function walkArray(schema: ToolArraySchema, value: unknown[], path: string, out: Sink): void {
  if (value.length > schema.maxItems) {
    add(out, path, 'too_many_items', `more than maxItems ${schema.maxItems}`);
    return;
  }
  if (value.length < (schema.minItems ?? 0))
    add(out, path, 'too_few_items', `fewer than minItems ${schema.minItems}`);
  value.forEach((item, index) => walk(schema.items, item, `${path}[${index}]`, out));
}

function walk(schema: ToolSchema, value: unknown, path: string, out: Sink): void {
  if (out.length >= MAX_VIOLATIONS) return;
  const expected = baseType(schema);
  const actual = jsonType(value);
  const typeOk =
    actual === expected ||
    (actual === 'null' && isNullable(schema)) ||
    (actual === 'number' && expected === 'integer');
  if (!typeOk) {
    add(
      out,
      path,
      'invalid_type',
      `expected ${expected}${isNullable(schema) ? ' or null' : ''}, got ${actual}`,
    );
    return;
  }
  const allowed = (schema as { enum?: unknown[] }).enum;
  if (allowed !== undefined && !allowed.includes(value)) {
    add(out, path, 'not_in_enum', 'not one of the enum values');
    return;
  }
  if (value === null) return;
  if (expected === 'object')
    walkObject(schema as ToolObjectSchema, value as Record<string, unknown>, path, out);
  else if (expected === 'array') walkArray(schema as ToolArraySchema, value as unknown[], path, out);
  else if (expected === 'string') walkString(schema as ToolStringSchema, value as string, path, out);
  else if (expected !== 'boolean') walkNumber(schema as ToolNumberSchema, value as number, path, out);
}

/** Every violation of `value` against `schema` (at most MAX_VIOLATIONS); empty when the value is valid. */
export function validateToolValue(schema: ToolSchema, value: unknown, path: string): ToolValueViolation[] {
  const out: Sink = [];
  walk(schema, value, path, out);
  return out;
}

/**
 * The normalized form of an accepted tool schema (see tool-schema-contract.ts for the rules). It is itself valid
 * JSON Schema and valid input to the contract again, so a stored definition can be re-checked against the
 * current contract (interface §4.6 rule 10: a reused tool run revalidates against the current schema).
 */

export type ToolValueType = 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean';
/** A single type, or that type plus `null` (normalized to `[type, 'null']`). */
export type ToolTypeSpec<T extends ToolValueType> = T | [T, 'null'];

interface Annotated {
  title?: string;
  description?: string;
}

export interface ToolObjectSchema extends Annotated {
  type: ToolTypeSpec<'object'>;
  properties: Record<string, ToolSchema>;
  required: string[];
  additionalProperties: false;
}

export interface ToolArraySchema extends Annotated {
  type: ToolTypeSpec<'array'>;
  items: ToolSchema;
  minItems?: number;
  maxItems: number;
}

export type ToolStringFormat = 'date-time' | 'date' | 'uri';

export interface ToolStringSchema extends Annotated {
  type: ToolTypeSpec<'string'>;
  minLength?: number;
  maxLength: number;
  format?: ToolStringFormat;
  enum?: Array<string | null>;
}

export interface ToolNumberSchema extends Annotated {
  type: ToolTypeSpec<'integer'> | ToolTypeSpec<'number'>;
  minimum: number;
  maximum: number;
  enum?: Array<number | null>;
}

export interface ToolBooleanSchema extends Annotated {
  type: ToolTypeSpec<'boolean'>;
}

export type ToolSchema =
  ToolObjectSchema | ToolArraySchema | ToolStringSchema | ToolNumberSchema | ToolBooleanSchema;

/** Bounds of the contract; every one is checked at registration. */
export const TOOL_SCHEMA_LIMITS = {
  /** Nesting levels of schemas: the root object is level 1, each `properties.<name>` or `items` adds one. */
  maxDepth: 6,
  /** Declared properties summed over every object of one schema. */
  maxTotalProperties: 200,
  /** Upper bound for any `maxLength` (Unicode code points, as JSON Schema counts). */
  maxStringLength: 10_000,
  /** Upper bound for any `maxItems`. */
  maxItems: 1_000,
  /** Values in one `enum`. */
  maxEnumValues: 100,
  /**
   * Worst-case size of a valid value in JSON characters (before string escaping): strings at maxLength, arrays at
   * maxItems, every property present. Bounds what a tool can push toward the model even when each field is bounded.
   */
  maxValueChars: 200_000,
  maxTitleLength: 200,
  maxDescriptionLength: 1_000,
} as const;

/** Property names: ASCII identifiers of at most 64 characters (no `__proto__`, dots or brackets in paths). */
export const PROPERTY_NAME = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;

export function baseType(schema: ToolSchema): ToolValueType {
  return Array.isArray(schema.type) ? schema.type[0] : schema.type;
}

export function isNullable(schema: ToolSchema): boolean {
  return Array.isArray(schema.type);
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** Own property lookup: never reaches `Object.prototype` (a property may be named `constructor`). */
export function own<T>(record: Record<string, T>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

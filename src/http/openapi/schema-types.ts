/**
 * Helpers for the response schemas of the OpenAPI document. OpenAPI 3.1 schemas are JSON Schema 2020-12 (e.g.
 * `type: ['string', 'null']`), which @nestjs/swagger's 3.0-era SchemaObject type cannot express: plain objects.
 */
export type JsonSchema = { [keyword: string]: unknown };

/** Named schemas of `components.schemas`. */
export type Schemas = Record<string, JsonSchema>;

export const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });

export const integer = (description?: string): JsonSchema =>
  description ? { type: 'integer', description } : { type: 'integer' };

export const str = (description?: string, example?: string): JsonSchema => ({
  type: 'string',
  ...(description ? { description } : {}),
  ...(example !== undefined ? { examples: [example] } : {}),
});

export const oneOfStrings = (values: readonly string[], description?: string): JsonSchema => ({
  type: 'string',
  enum: [...values],
  ...(description ? { description } : {}),
});

export const timestamp = (description = 'ISO 8601 UTC timestamp'): JsonSchema => ({
  type: 'string',
  format: 'date-time',
  description,
});

export const arrayOf = (items: JsonSchema, description?: string): JsonSchema => ({
  type: 'array',
  items,
  ...(description ? { description } : {}),
});

/** A closed object: every listed property required unless named in `optional`; nothing else allowed. */
export function closed(
  properties: Record<string, JsonSchema>,
  optional: string[] = [],
  description?: string,
): JsonSchema {
  return {
    type: 'object',
    ...(description ? { description } : {}),
    properties,
    required: Object.keys(properties).filter((key) => !optional.includes(key)),
    additionalProperties: false,
  };
}

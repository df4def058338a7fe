/** Small builders for raw (unvalidated) tool schemas used by the tool specs. */
export type Raw = Record<string, unknown>;

export const str = (extra: Raw = {}): Raw => ({ type: 'string', maxLength: 100, ...extra });
export const int = (extra: Raw = {}): Raw => ({ type: 'integer', minimum: 0, maximum: 10, ...extra });
export const num = (extra: Raw = {}): Raw => ({ type: 'number', minimum: 0, maximum: 1, ...extra });
export const bool = (extra: Raw = {}): Raw => ({ type: 'boolean', ...extra });
export const arr = (items: unknown, extra: Raw = {}): Raw => ({
  type: 'array',
  items,
  maxItems: 10,
  ...extra,
});
export const obj = (properties: Record<string, unknown>, extra: Raw = {}): Raw => ({
  type: 'object',
  properties,
  additionalProperties: false,
  ...extra,
});

/** A schema of `levels` nesting levels (the root object is level 1): objects down to one string leaf. */
export function nested(levels: number): Raw {
  let schema: Raw = str();
  for (let level = 1; level < levels; level++) schema = obj({ child: schema });
  return schema;
}

/** Root path of output-schema problems, and the path of nested properties below it. */
export const O = 'output_schema';
export const P = (...names: string[]): string => [O, ...names.map((name) => `properties.${name}`)].join('.');

/** Shape helpers over an accepted (normalized) tool schema. */
import { baseType, type ToolObjectSchema, type ToolSchema } from './tool-schema-types';

/** Worst-case JSON characters of a valid value (strings unescaped). */
export function maxValueChars(schema: ToolSchema): number {
  switch (baseType(schema)) {
    case 'object': {
      const { properties } = schema as ToolObjectSchema;
      return Object.entries(properties).reduce(
        (sum, [name, child]) => sum + name.length + 4 + maxValueChars(child),
        2,
      );
    }
    case 'array': {
      const { items, maxItems } = schema as { items: ToolSchema; maxItems: number };
      return 2 + maxItems * (maxValueChars(items) + 1);
    }
    case 'string':
      return (schema as { maxLength: number }).maxLength + 2;
    case 'boolean':
      return 5;
    default:
      return 24;
  }
}

/** Every field below the root, with its path: property names joined by `.`, `[]` for array items. */
export function listSchemaFields(
  schema: ToolSchema,
  prefix = '',
): Array<{ path: string; schema: ToolSchema }> {
  const fields: Array<{ path: string; schema: ToolSchema }> = [];
  const kind = baseType(schema);
  if (kind === 'object') {
    for (const [name, child] of Object.entries((schema as ToolObjectSchema).properties)) {
      const path = prefix === '' ? name : `${prefix}.${name}`;
      fields.push({ path, schema: child }, ...listSchemaFields(child, path));
    }
  } else if (kind === 'array') {
    const path = `${prefix}[]`;
    const items = (schema as { items: ToolSchema }).items;
    fields.push({ path, schema: items }, ...listSchemaFields(items, path));
  }
  return fields;
}

import type { OpenAPIObject } from '@nestjs/swagger';

type Json = { [key: string]: unknown };

/**
 * A component of the OpenAPI document as a self-contained JSON Schema for an MCP tool: its `#/components/schemas/X`
 * references point into `$defs`, which holds every component it reaches. The request schemas come from the same
 * DTO classes the REST API validates with; the result schemas are the documented responses.
 */
export function toolSchema(document: OpenAPIObject, name: string, extend?: (schema: Json) => Json): Json {
  const components = (document.components?.schemas ?? {}) as Record<string, Json>;
  const defs: Record<string, unknown> = {};
  const visit = (component: string): void => {
    if (component in defs) return;
    const schema = components[component];
    if (!schema) throw new Error(`OpenAPI: no schema ${component}`);
    defs[component] = null;
    defs[component] = rewrite(schema, visit);
  };
  const root = rewrite(components[name] ?? {}, visit) as Json;
  const own = { ...root, ...(Object.keys(defs).length > 0 ? { $defs: defs } : {}) };
  // MCP wants an object schema at the top, also for a oneOf of object forms.
  return extend ? extend({ type: 'object', ...own }) : { type: 'object', ...own };
}

function rewrite(value: unknown, visit: (component: string) => void): unknown {
  if (Array.isArray(value)) return value.map((inner) => rewrite(inner, visit));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => {
      if (key === '$ref' && typeof inner === 'string' && inner.startsWith('#/components/schemas/')) {
        const component = inner.slice('#/components/schemas/'.length);
        visit(component);
        return [key, `#/$defs/${component}`];
      }
      return [key, rewrite(inner, visit)];
    }),
  );
}

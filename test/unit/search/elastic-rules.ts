/**
 * Elasticsearch's documented rules that Cairn's requests must respect, checked on recorded requests (no server):
 *
 * - Dynamic mapping: a field's type is fixed by the first value indexed under it (by the matching dynamic
 *   template); later values of another JSON type are coerced (a number into a keyword's string form), dropped
 *   (`ignore_malformed`) or refused (a non-boolean string into a boolean: the write fails). Cairn must send
 *   each field values of one JSON type only, the type its mapping declares.
 * - Term-level queries on a field of another type: a string on a numeric field is a 400
 *   (number_format_exception); a number on a keyword matches its string form. Cairn must query each field with
 *   values of its own type.
 * - `combined_fields` refuses fields with a per-field `similarity`
 *   ("[combined_fields] queries cannot be used with per-field similarities").
 */

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

export type JsonType = 'string' | 'number' | 'boolean';

const JSON_TYPE_OF_MAPPING: Record<string, JsonType> = {
  keyword: 'string',
  text: 'string',
  double: 'number',
  long: 'number',
  float: 'number',
  integer: 'number',
  boolean: 'boolean',
};

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function globMatches(pattern: string, path: string): boolean {
  const regex = new RegExp(
    `^${pattern
      .split('*')
      .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
  );
  return regex.test(path);
}

function detectedType(value: Json): string {
  if (typeof value === 'string') return 'string';
  if (typeof value === 'boolean') return 'boolean';
  if (typeof value === 'number') return Number.isInteger(value) ? 'long' : 'double';
  return 'object';
}

/** The mapping of an index as Elasticsearch would grow it from the documents it indexes. */
export class DynamicMapping {
  /** Field path → mapped type (explicit, or fixed by the first value a dynamic template saw). */
  readonly types = new Map<string, string>();
  readonly violations: string[] = [];

  constructor(private readonly mappings: JsonObject) {}

  index(document: JsonObject): void {
    this.walk(document, '', (this.mappings.properties ?? {}) as JsonObject);
  }

  /** The type of a field path, or undefined when it is not mapped (yet). */
  typeOf(path: string): string | undefined {
    return this.types.get(path) ?? this.explicit(path);
  }

  private explicit(path: string): string | undefined {
    let properties = (this.mappings.properties ?? {}) as JsonObject;
    const parts = path.split('.');
    for (const [n, part] of parts.entries()) {
      const property = properties[part];
      if (!isObject(property)) return undefined;
      if (n === parts.length - 1) return typeof property.type === 'string' ? property.type : undefined;
      properties = (property.properties ?? {}) as JsonObject;
    }
    return undefined;
  }

  private walk(value: JsonObject, prefix: string, properties: JsonObject): void {
    for (const [key, child] of Object.entries(value)) {
      const path = prefix === '' ? key : `${prefix}.${key}`;
      const property = properties[key];
      if (isObject(property) && property.enabled === false) continue;
      if (isObject(child)) {
        this.walk(child, path, isObject(property) ? ((property.properties ?? {}) as JsonObject) : {});
        continue;
      }
      if (child === null) continue;
      const leaves = Array.isArray(child) ? child : [child];
      for (const leaf of leaves) this.leaf(path, leaf, property);
    }
  }

  private leaf(path: string, value: Json, property: Json | undefined): void {
    let type = isObject(property) && typeof property.type === 'string' ? property.type : this.types.get(path);
    if (type === undefined) {
      type = this.fromTemplate(path, value);
      if (type === undefined) {
        this.violations.push(
          `${path}: no mapping and no dynamic template (strict mapping refuses the write)`,
        );
        return;
      }
      this.types.set(path, type);
    }
    const expected = JSON_TYPE_OF_MAPPING[type];
    const actual = typeof value;
    if (expected !== undefined && actual !== expected) {
      this.violations.push(`${path}: ${JSON.stringify(value)} (${actual}) indexed into a ${type} field`);
    }
  }

  private fromTemplate(path: string, value: Json): string | undefined {
    const templates = (this.mappings.dynamic_templates ?? []) as JsonObject[];
    for (const entry of templates) {
      const template = Object.values(entry)[0] as JsonObject;
      const pathMatch = template.path_match;
      if (typeof pathMatch === 'string' && !globMatches(pathMatch, path)) continue;
      const matchType = template.match_mapping_type;
      const detected = detectedType(value);
      if (typeof matchType === 'string' && matchType !== '*' && matchType !== detected) continue;
      const mapping = template.mapping as JsonObject;
      return typeof mapping.type === 'string' ? mapping.type : undefined;
    }
    return undefined;
  }
}

/** Term, terms and range queries whose values are not of the queried field's mapped type. */
export function queryTypeViolations(query: Json, mapping: DynamicMapping): string[] {
  const violations: string[] = [];
  const check = (kind: string, path: string, values: Json[]): void => {
    const type = mapping.typeOf(path);
    const expected = type === undefined ? undefined : JSON_TYPE_OF_MAPPING[type];
    for (const value of values) {
      if (expected !== undefined && typeof value !== expected) {
        violations.push(
          `${kind} ${path}: ${JSON.stringify(value)} (${typeof value}) against a ${type} field`,
        );
      }
    }
  };
  const visit = (node: Json): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!isObject(node)) return;
    for (const [key, child] of Object.entries(node)) {
      if ((key === 'term' || key === 'terms' || key === 'range') && isObject(child)) {
        for (const [path, spec] of Object.entries(child)) {
          if (key === 'term') check(key, path, [isObject(spec) ? spec.value : spec]);
          if (key === 'terms') check(key, path, Array.isArray(spec) ? spec : []);
          if (key === 'range' && isObject(spec)) {
            check(
              key,
              path,
              ['gt', 'gte', 'lt', 'lte'].flatMap((bound) => (bound in spec ? [spec[bound]] : [])),
            );
          }
        }
      } else visit(child);
    }
  };
  visit(query);
  return violations;
}

/** The fields of every combined_fields query in `query` (boosts stripped). */
export function combinedFields(query: Json): string[] {
  const fields: string[] = [];
  const visit = (node: Json): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!isObject(node)) return;
    for (const [key, child] of Object.entries(node)) {
      if (key === 'combined_fields' && isObject(child) && Array.isArray(child.fields)) {
        for (const field of child.fields) if (typeof field === 'string') fields.push(field.split('^')[0]);
      } else visit(child);
    }
  };
  visit(query);
  return fields;
}

import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

/**
 * Checks HTTP responses against the served /openapi.json: every JSON response of a documented operation must be
 * one of its documented statuses and match that status's schema. `http()` (test-app.ts) calls it on every
 * response, so the integration tests keep the document true.
 */
type Doc = {
  paths: Record<
    string,
    Record<string, { responses: Record<string, { content?: Record<string, { schema: object }> }> }>
  >;
  components: { schemas: Record<string, object> };
};

export class OpenApiValidator {
  private readonly ajv = new Ajv2020({ allErrors: true, strict: true });
  private readonly compiled = new Map<string, ValidateFunction>();
  private readonly defs: Record<string, object>;
  private readonly routes: Array<{ template: string; pattern: RegExp }>;

  constructor(private readonly doc: Doc) {
    addFormats(this.ajv);
    this.ajv.addVocabulary(['example']);
    this.defs = rewriteRefs(doc.components.schemas) as Record<string, object>;
    this.routes = Object.keys(doc.paths).map((template) => ({
      template,
      pattern: new RegExp(
        `^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`,
      ),
    }));
  }

  /** Throws with the reasons when a response of a documented operation is not as documented. */
  check(method: string, url: string, status: number, contentType: string | null, body: unknown): void {
    const path = new URL(url, 'http://x').pathname;
    const route = this.routes.find((candidate) => candidate.pattern.test(path));
    const operation = route ? this.doc.paths[route.template]?.[method.toLowerCase()] : undefined;
    if (!route || !operation) return; // not a documented operation (HTML pages, /metrics, unknown routes)
    const where = `${method.toUpperCase()} ${path} → ${status}`;
    const response = operation.responses[String(status)];
    if (!response) throw new Error(`${where}: status not documented in /openapi.json`);
    const schema = response.content?.['application/json']?.schema;
    if (!schema) return; // documented without a body (304)
    if (!contentType?.startsWith('application/json')) throw new Error(`${where}: not JSON (${contentType})`);
    const key = `${route.template} ${method} ${status}`;
    let validate = this.compiled.get(key);
    if (!validate) {
      validate = this.ajv.compile({ $defs: this.defs, ...(rewriteRefs(schema) as object) });
      this.compiled.set(key, validate);
    }
    if (!validate(body)) {
      const errors = (validate.errors ?? []).map(
        (e) => `${e.instancePath || '/'} ${e.message} ${JSON.stringify(e.params)}`,
      );
      throw new Error(`${where}: body does not match /openapi.json:\n  ${errors.join('\n  ')}`);
    }
  }
}

/** `#/components/schemas/X` → `#/$defs/X`, so one response schema compiles with the components beside it. */
function rewriteRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(rewriteRefs);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) =>
      key === '$ref' && typeof inner === 'string'
        ? [key, inner.replace('#/components/schemas/', '#/$defs/')]
        : [key, rewriteRefs(inner)],
    ),
  );
}

const byServer = new Map<string, Promise<OpenApiValidator | null>>();

/** The base URLs of the Cairn servers tests started (validate-fetch.ts checks every response they give). */
export const cairnServers = new Set<string>();

/** The validator over the document a server serves (fetched once per server); null for a server that is not Cairn. */
export function openApiValidator(baseUrl: string): Promise<OpenApiValidator | null> {
  let found = byServer.get(baseUrl);
  if (!found) {
    found = fetch(`${baseUrl}/openapi.json`).then(
      async (response) =>
        response.status === 200 ? new OpenApiValidator((await response.json()) as Doc) : null,
      () => {
        // Unreachable (not started, or closing): the request itself will say so; ask again next time.
        byServer.delete(baseUrl);
        return null;
      },
    );
    byServer.set(baseUrl, found);
  }
  return found;
}

import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { http, startTestApp, type TestApp } from '../support/test-app';
import { OpenApiValidator } from '../support/openapi-validator';

/** The served OpenAPI document: complete enough to generate a client from, and checked against every response. */
describe('OpenAPI document (/openapi.json, /docs)', () => {
  let app: TestApp;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the document is arbitrary JSON under test
  let doc: any;

  beforeAll(async () => {
    app = await startTestApp();
    doc = (await http(app.baseUrl, 'GET', '/openapi.json')).body;
  });
  afterAll(() => app.close());

  const connector = '/app/api/tool-connectors/v1';
  const json = (response: { content?: Record<string, { schema: unknown }> }): unknown =>
    response.content?.['application/json']?.schema;

  it('is OpenAPI 3.1 and every operation documents a JSON success schema and an operationId', () => {
    expect(doc.openapi).toBe('3.1.0');
    const operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.entries(
        methods as Record<string, { operationId: string; responses: Record<string, never> }>,
      ).map(([method, op]) => ({ path, method, op })),
    );
    expect(operations.length).toBeGreaterThanOrEqual(12);
    for (const { op } of operations) {
      expect(op.operationId).toMatch(/^[a-z][A-Za-z]+$/);
      // One success status: 200, or 202 for the admin document upload (it answers before ingesting).
      expect(json(op.responses['200'] ?? op.responses['202'])).toEqual({
        $ref: expect.stringMatching(/^#\/components\/schemas\//),
      });
    }
  });

  it('documents every error status with the error schema, and 401 with WWW-Authenticate', () => {
    const reply = doc.paths[`${connector}/assistant/replies`].post.responses;
    for (const status of ['400', '401', '403', '409', '413', '415', '422', '429']) {
      expect(json(reply[status])).toEqual({ $ref: '#/components/schemas/Error' });
    }
    expect(reply['401'].headers['WWW-Authenticate']).toBeDefined();
    // Connector operations are rate limited per token and capability class.
    expect(reply['429'].headers['Retry-After']).toBeDefined();
    const feedback = doc.paths[`${connector}/assistant/replies/{message_id}/feedback`].post.responses;
    expect(Object.keys(feedback).sort()).toEqual([
      '200',
      '400',
      '401',
      '403',
      '404',
      '409',
      '413',
      '415',
      '422',
      '429',
      '431',
      '500',
      '503',
    ]);
    const directory = doc.paths['/api/cairn-client-pages'].get.responses;
    expect(Object.keys(directory).sort()).toEqual(['200', '304', '422', '429', '431', '500', '503']);
    expect(directory['429'].headers['Retry-After']).toBeDefined();
    expect(doc.components.schemas.Error.properties.error.required).toEqual(['code', 'message', 'details']);
  });

  it('every operation documents 500 (the error body), and 431 / 503 in the HTTP server’s own body', () => {
    for (const methods of Object.values(doc.paths) as Array<Record<string, { responses: never }>>) {
      for (const { responses } of Object.values(methods)) {
        expect(json(responses['500'])).toEqual({ $ref: '#/components/schemas/Error' });
        expect(json(responses['431'])).toEqual({ $ref: '#/components/schemas/HttpServerError' });
        expect(JSON.stringify(json(responses['503']))).toContain('#/components/schemas/HttpServerError');
      }
    }
    expect(json(doc.paths['/ready'].get.responses['503'])).toEqual({
      oneOf: [
        { $ref: '#/components/schemas/ReadyResponse' },
        { $ref: '#/components/schemas/HttpServerError' },
      ],
    });
  });

  it('error details are typed: retryable, retry_after_ms (429) and capability (403)', () => {
    expect(doc.components.schemas.ErrorDetail.properties).toMatchObject({
      field: { type: 'string' },
      message: { type: 'string' },
      retryable: { type: 'boolean' },
      retry_after_ms: { type: 'integer', minimum: 0 },
      capability: { type: 'string' },
    });
  });

  it('public routes need no token (security: []); the rest take the opaque cairn_ token, not a JWT', () => {
    const security = (path: string, method = 'get'): unknown => doc.paths[path][method].security;
    for (const path of ['/health', '/ready', '/api/cairn-client-pages', '/api/cairn-client-pages/{slug}']) {
      expect(security(path)).toEqual([]);
    }
    expect(security(`${connector}/connector`)).toEqual([{ bearer: [] }]);
    expect(security(`${connector}/assistant/replies`, 'post')).toEqual([{ bearer: [] }]);
    const bearer = doc.components.securitySchemes.bearer;
    expect(bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(bearer.bearerFormat).not.toMatch(/JWT/);
    expect(bearer.bearerFormat).toContain('cairn_');
    expect(doc.servers).toEqual([{ url: '/', description: expect.any(String) }]);
    expect(doc.info.license.name).toBeTruthy();
  });

  it('no description cites the spec (§): readers of the document (and models, through MCP) have no spec', () => {
    expect(JSON.stringify(doc)).not.toContain('§');
  });

  it('passes Redocly lint with the recommended rules (redocly.yaml), without a warning', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cairn-openapi-lint-'));
    try {
      const file = join(dir, 'openapi.json');
      writeFileSync(file, JSON.stringify(doc));
      const lint = spawnSync(join('node_modules', '.bin', 'redocly'), ['lint', file, '--format=summary'], {
        encoding: 'utf8',
        timeout: 120_000,
      });
      expect({ status: lint.status, problems: lint.stdout.trim() }).toEqual({ status: 0, problems: '' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the reply is success | system_status as oneOf, told apart by ok / outcome', () => {
    const schemas = doc.components.schemas;
    expect(schemas.ReplyResult.oneOf).toEqual([
      { $ref: '#/components/schemas/ReplySuccess' },
      { $ref: '#/components/schemas/ReplySystemStatus' },
    ]);
    expect(schemas.ReplySuccess.properties.ok).toEqual({ const: true });
    expect(schemas.ReplySystemStatus.properties.ok).toEqual({ const: false });
    expect(schemas.ReplySystemStatus.properties.outcome).toEqual({ const: 'system_status' });
    expect(schemas.ReplySystemStatus.required).not.toContain('reply_id');
    expect(schemas.ReplyReference.properties.conflicts.items).toEqual({
      $ref: '#/components/schemas/ReferenceConflict',
    });
    expect(schemas.FeedbackResponse.properties.rating.enum).toEqual(['up', 'down', 'none']);
  });

  it('ids, limits and pages are integers; path and query parameters are typed', () => {
    const schemas = doc.components.schemas;
    expect(schemas.MemoryItem.properties.memory_item_id.type).toBe('integer');
    expect(schemas.SearchMemoryBody.properties.limit).toMatchObject({
      type: 'integer',
      minimum: 1,
      maximum: 100,
    });
    expect(schemas.ReportUsageBody.properties.used_item_ids.items.type).toBe('integer');
    const item = doc.paths[`${connector}/memory/items/{memory_item_id}`].get.parameters[0];
    expect(item).toMatchObject({ in: 'path', name: 'memory_item_id', schema: { type: 'integer' } });
    const query = Object.fromEntries(
      doc.paths['/api/cairn-client-pages'].get.parameters.map((p: { name: string; schema: unknown }) => [
        p.name,
        p.schema,
      ]),
    );
    expect(query).toMatchObject({
      q: { type: 'string', maxLength: 200 },
      sort: { enum: ['name', 'newest', 'updated'] },
      per_page: { type: 'integer', minimum: 1, maximum: 24 },
      page: { type: 'integer', minimum: 1 },
    });
  });

  it('/docs shows the reference page', async () => {
    const page = await fetch(`${app.baseUrl}/docs`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
  });

  it('the response check fails on an undocumented status or a body that drifted', () => {
    const validator = new OpenApiValidator(doc);
    const path = `${connector}/memory/usage`;
    expect(() => validator.check('POST', path, 200, 'application/json', { ok: true })).not.toThrow();
    expect(() => validator.check('POST', path, 200, 'application/json', { ok: true, extra: 1 })).toThrow(
      /does not match/,
    );
    expect(() => validator.check('POST', path, 418, 'application/json', {})).toThrow(/status not documented/);
    expect(() =>
      validator.check('POST', path, 422, 'application/json', {
        ok: false,
        error: { code: 'x', message: 'y' },
      }),
    ).toThrow(/details/);
  });
});

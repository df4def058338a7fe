import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import type { ResponsesObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { OpenApiDocumentHolder } from './openapi-document';
import { ADMIN_OPERATIONS } from './openapi/admin.operations';
import { adminSchemas } from './openapi/admin.schemas';
import { errorResponse } from './openapi/error-responses';
import { memorySchemas } from './openapi/memory.schemas';
import { OPERATIONS, SERVER_STATUSES, type ErrorStatus } from './openapi/operations';
import { publicSchemas } from './openapi/public.schemas';
import { replySchemas } from './openapi/reply.schemas';

/** OpenAPI 3.1 generated from the controllers and DTOs, served at /openapi.json; the reference page at /docs. */
export function setupOpenApi(app: NestFastifyApplication): void {
  const document = buildOpenApiDocument(app);
  app.get(OpenApiDocumentHolder).set(document);
  SwaggerModule.setup('docs', app, document, {
    jsonDocumentUrl: 'openapi.json',
    yamlDocumentUrl: 'openapi.yaml',
    customSiteTitle: 'Cairn API reference',
  });
}

export function buildOpenApiDocument(app: NestFastifyApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setOpenAPIVersion('3.1.0')
    .setTitle('Cairn')
    .setDescription(
      'Organization memory and grounded, reviewed replies. Connector endpoints need `Authorization: Bearer <token>`; ' +
        'errors other than reply `system_status` results use `{"ok": false, "error": {code, message, details}}`. ' +
        'Conventions: docs/api.md.',
    )
    .setVersion('v1')
    .addServer('/', 'The server that serves this document (its /openapi.json).')
    .addBearerAuth({
      type: 'http',
      scheme: 'bearer',
      // Not a JWT: an opaque random token, stored by the server only as its SHA-256.
      bearerFormat: 'cairn_ + 43 base64url characters (opaque)',
      description:
        'A connector token: `cairn_` followed by 43 base64url characters (256 random bits), opaque.',
    })
    .addBearerAuth(
      {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'cairn_op_ + 43 base64url characters (opaque)',
        description: 'An operator token of the admin API (`cairn_op_…`, docs/admin.md), opaque.',
      },
      'operator',
    )
    .build();
  // package.json's license: not released under an open licence (Nest's setLicense() always writes a url).
  config.info.license = { name: 'UNLICENSED (all rights reserved)' };
  return completeDocument(SwaggerModule.createDocument(app, config));
}

/**
 * Adds what decorators cannot say well: the exact response schemas of spec §2 (JSON Schema 2020-12), every error
 * response, integer path parameters and operation ids. Throws when an operation it describes no longer exists,
 * so the document cannot silently drift from the routes.
 */
export function completeDocument(document: OpenAPIObject): OpenAPIObject {
  // The 3.1 schemas are plain JSON Schema objects (see openapi/schema-types.ts), wider than Nest's 3.0 types.
  const schemas = (document.components ??= {}).schemas as Record<string, unknown>;
  Object.assign(schemas, memorySchemas, replySchemas, publicSchemas, adminSchemas);
  for (const spec of [...OPERATIONS, ...ADMIN_OPERATIONS]) {
    const operation = document.paths[spec.path]?.[spec.method];
    if (!operation) throw new Error(`OpenAPI: no operation ${spec.method.toUpperCase()} ${spec.path}`);
    operation.operationId = spec.operationId;
    const success = {
      description: spec.success.description,
      content: {
        'application/json': {
          schema: { $ref: `#/components/schemas/${spec.success.schema}` },
          ...(spec.success.example !== undefined ? { example: spec.success.example } : {}),
        },
      },
    };
    const statuses = [...new Set<ErrorStatus>([...spec.errors, ...SERVER_STATUSES])].sort((a, b) => a - b);
    operation.responses = {
      [spec.status ?? 200]: success,
      ...Object.fromEntries(statuses.map((status) => [status, errorResponse(status, spec.operationId)])),
    } as ResponsesObject;
    if (spec.public) operation.security = [];
    for (const parameter of operation.parameters ?? []) {
      if ('in' in parameter && parameter.in === 'path' && spec.integerParams?.includes(parameter.name)) {
        parameter.schema = { type: 'integer', minimum: 1, example: 1 };
        parameter.required = true;
      }
    }
  }
  return document;
}

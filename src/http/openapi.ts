import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import type { ResponsesObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { OpenApiDocumentHolder } from './openapi-document';
import { ADMIN_OPERATIONS } from './openapi/admin.operations';
import { adminSchemas } from './openapi/admin.schemas';
import { errorResponse } from './openapi/error-responses';
import { memorySchemas } from './openapi/memory.schemas';
import { OPERATIONS } from './openapi/operations';
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
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'a connector token (cairn_…)' })
    .addBearerAuth(
      {
        type: 'http',
        scheme: 'bearer',
        description: 'an operator token (cairn_op_…) of the admin API (docs/admin.md)',
      },
      'operator',
    )
    .build();
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
    operation.responses = {
      [spec.status ?? 200]: success,
      ...Object.fromEntries(spec.errors.map((status) => [status, errorResponse(status)])),
    } as ResponsesObject;
    for (const parameter of operation.parameters ?? []) {
      if ('in' in parameter && parameter.in === 'path' && spec.integerParams?.includes(parameter.name)) {
        parameter.schema = { type: 'integer', minimum: 1, example: 1 };
        parameter.required = true;
      }
    }
  }
  return document;
}

import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';

/** OpenAPI 3.1 generated from the controllers and DTOs, served at /openapi.json; the reference page at /docs. */
export function setupOpenApi(app: NestFastifyApplication): void {
  const config = new DocumentBuilder()
    .setOpenAPIVersion('3.1.0')
    .setTitle('Cairn')
    .setDescription(
      'Organization memory and grounded, reviewed replies. Connector endpoints need `Authorization: Bearer <token>`; ' +
        'errors other than reply `system_status` results use `{"ok": false, "error": {code, message, details}}`.',
    )
    .setVersion('v1')
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'a connector token (cairn_…)' })
    .build();
  const document = SwaggerModule.createDocument(app, config);
  SwaggerModule.setup('docs', app, document, {
    jsonDocumentUrl: 'openapi.json',
    yamlDocumentUrl: 'openapi.yaml',
    customSiteTitle: 'Cairn API reference',
  });
}

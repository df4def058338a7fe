import type { DynamicModule, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppModule } from '../app.module';
import type { CoreOptions } from '../core.module';
import { registerCors } from './cors';
import { registerJsonBodyParser } from './json-body-parser';
import { setupOpenApi } from './openapi';
import { strictValidationPipe } from './validation';

/** Builds the HTTP application (not listening yet): Fastify, strict JSON, one error shape, OpenAPI. */
export async function createHttpApp(
  options: CoreOptions,
  nest: {
    logger?: false | Array<'log' | 'error' | 'warn' | 'debug' | 'verbose' | 'fatal'>;
    extraModules?: Array<Type | DynamicModule>;
  } = {},
): Promise<NestFastifyApplication> {
  const bodyLimit = options.config.maxBodyBytes;
  const adapter = new FastifyAdapter({ bodyLimit, trustProxy: false, return503OnClosing: true });
  const fastify = adapter.getInstance();
  registerJsonBodyParser(fastify, bodyLimit);
  const app = await NestFactory.create<NestFastifyApplication>(
    AppModule.forRoot(options, nest.extraModules),
    adapter,
    {
      bodyParser: false,
      logger: nest.logger ?? ['log', 'error', 'warn', 'fatal'],
    },
  );
  await registerCors(app, options.config.corsOrigins);
  app.useGlobalPipes(strictValidationPipe());
  app.enableShutdownHooks();
  setupOpenApi(app);
  return app;
}

import type { DynamicModule, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { DestinationStream } from 'pino';
import { AppModule } from '../app.module';
import type { CoreOptions } from '../core.module';
import { STORES, type Stores } from '../infrastructure/stores';
import { registerHttpObservability } from '../observability/http-observability';
import { configureLogs, log, type LogLevel } from '../observability/log';
import { observePositions } from '../observability/metrics';
import { NestPinoLogger } from '../observability/nest-logger';
import { requestIdOf } from '../observability/request-id';
import { warnAboutConfiguration } from '../observability/startup-checks';
import { registerConsoleFormParser } from './console/form-body-parser';
import { registerCors } from './cors';
import { registerJsonBodyParser } from './json-body-parser';
import { setupOpenApi } from './openapi';
import { httpServerTimeouts } from './server-timeouts';
import { strictValidationPipe } from './validation';

type NestLevels = Array<'log' | 'error' | 'warn' | 'debug' | 'verbose' | 'fatal'>;

/** Tests name Nest's levels; the server uses CAIRN_LOG_LEVEL. */
function logLevel(nest: false | NestLevels | undefined, configured: LogLevel): LogLevel {
  if (nest === false) return 'silent';
  if (nest === undefined) return configured;
  if (nest.includes('verbose') || nest.includes('debug')) return 'debug';
  if (nest.includes('log')) return 'info';
  return nest.includes('warn') ? 'warn' : 'error';
}

/**
 * Builds the HTTP application (not listening yet): Fastify, strict JSON, one error shape, OpenAPI, structured
 * logs with request ids, metrics (docs/operations.md).
 */
export async function createHttpApp(
  options: CoreOptions,
  nest: {
    logger?: false | NestLevels;
    extraModules?: Array<Type | DynamicModule>;
    /** Where log lines go (tests); default stdout. */
    logDestination?: DestinationStream;
  } = {},
): Promise<NestFastifyApplication> {
  const bodyLimit = options.config.maxBodyBytes;
  configureLogs({
    level: logLevel(nest.logger, options.config.logLevel),
    ...(nest.logDestination ? { destination: nest.logDestination } : {}),
  });
  const adapter = new FastifyAdapter({
    bodyLimit,
    trustProxy: false,
    return503OnClosing: true,
    genReqId: requestIdOf,
    ...httpServerTimeouts(options.config.httpTimeouts),
  });
  const fastify = adapter.getInstance();
  registerHttpObservability(fastify, { metrics: options.config.metrics });
  registerJsonBodyParser(fastify, bodyLimit);
  registerConsoleFormParser(fastify);
  const app = await NestFactory.create<NestFastifyApplication>(
    AppModule.forRoot(options, nest.extraModules),
    adapter,
    {
      bodyParser: false,
      logger: new NestPinoLogger(log),
    },
  );
  await registerCors(app, options.config.corsOrigins);
  app.useGlobalPipes(strictValidationPipe());
  app.enableShutdownHooks();
  setupOpenApi(app);
  const stores = app.get<Stores>(STORES);
  observePositions({
    head: () => stores.eventStore.headPosition(),
    checkpoints: () => stores.readStore.listCheckpoints(),
  });
  warnAboutConfiguration(options.config);
  return app;
}

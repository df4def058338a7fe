import type { DynamicModule, Type } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { CommandBus } from '@nestjs/cqrs';
import type { Clock } from '../../src/common/clock';
import { loadConfig, type CairnConfig } from '../../src/config/config';
import { createHttpApp } from '../../src/http/create-http-app';
import { STORES, type Stores } from '../../src/infrastructure/stores';
import { CONNECTOR_RATE_LIMITS_OFF } from './rate-limits';
import { cairnServers, openApiValidator } from './openapi-validator';
import { makeTempDir } from './temp-dir';

export interface TestApp {
  app: NestFastifyApplication;
  baseUrl: string;
  dataDir: string;
  config: CairnConfig;
  commands: CommandBus;
  stores: Stores;
  close(): Promise<void>;
}

/**
 * A real Cairn HTTP server on 127.0.0.1 and a random port, over a fresh embedded data directory (or `dataDir`);
 * `clock` replaces the system clock.
 */
export async function startTestApp(
  env: Record<string, string> = {},
  dataDir?: string,
  extraModules: Array<Type | DynamicModule> = [],
  clock?: Clock,
  /** Captures the log lines (at level info and above) instead of dropping all but errors. */
  logDestination?: { write(line: string): void },
): Promise<TestApp> {
  const temp = dataDir ? null : makeTempDir();
  const dir = dataDir ?? temp!.dir;
  const config = loadConfig({
    CAIRN_DATA_DIR: dir,
    PORT: '0',
    HOST: '127.0.0.1',
    ...CONNECTOR_RATE_LIMITS_OFF,
    ...env,
  });
  const app = await createHttpApp(clock ? { config, clock } : { config }, {
    logger: logDestination ? ['log', 'error', 'warn', 'fatal'] : ['error', 'fatal'],
    extraModules,
    ...(logDestination ? { logDestination } : {}),
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.getHttpServer().address();
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  cairnServers.add(`http://127.0.0.1:${address.port}`);
  return {
    app,
    baseUrl: `http://127.0.0.1:${address.port}`,
    dataDir: dir,
    config,
    commands: app.get(CommandBus),
    stores: app.get<Stores>(STORES),
    async close() {
      await app.close();
      temp?.cleanup();
    },
  };
}

/**
 * JSON over real HTTP. Every response of a documented operation is checked against the served /openapi.json
 * (status documented, body matches its schema); a mismatch fails the test.
 */
export async function http(
  baseUrl: string,
  method: string,
  path: string,
  options: {
    token?: string;
    body?: unknown;
    rawBody?: string | Buffer;
    headers?: Record<string, string>;
  } = {},
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests assert on arbitrary JSON bodies
): Promise<{ status: number; body: any; headers: Headers }> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body: string | ArrayBuffer | undefined;
  if (options.rawBody !== undefined) {
    body = typeof options.rawBody === 'string' ? options.rawBody : Uint8Array.from(options.rawBody).buffer;
  } else if (options.body !== undefined) body = JSON.stringify(options.body);
  if (body !== undefined && !headers['content-type']) headers['content-type'] = 'application/json';
  // The document first: the request may be the last one a closing server answers.
  const validator = await openApiValidator(baseUrl);
  const response = await fetch(`${baseUrl}${path}`, { method, headers, body });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    // not JSON: keep the text
  }
  validator?.check(method, path, response.status, response.headers.get('content-type'), parsed);
  return { status: response.status, body: parsed, headers: response.headers };
}

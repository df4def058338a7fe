import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { loadConfig, type CairnConfig } from '../src/config/config';
import { createHttpApp } from '../src/http/create-http-app';
import { STORES, type Stores } from '../src/infrastructure/stores';
import { BENCH_RATE_LIMITS } from './bench-rate-limits';

export interface BenchServer {
  app: NestFastifyApplication;
  baseUrl: string;
  stores: Stores;
  config: CairnConfig;
}

/**
 * A real Cairn server on 127.0.0.1 over `dir` (long consistency wait: bulk loads precede the measurements);
 * `env` adds or overrides configuration variables.
 */
export async function startBenchServer(dir: string, env: Record<string, string> = {}): Promise<BenchServer> {
  const config = loadConfig({
    CAIRN_DATA_DIR: dir,
    PORT: '0',
    HOST: '127.0.0.1',
    CAIRN_CONSISTENCY_WAIT_MS: '120000',
    ...BENCH_RATE_LIMITS,
    // Ranking settings come from the caller's environment, so a bench or eval can be run with another value.
    ...(process.env.CAIRN_SEARCH_TITLE_BOOST === undefined
      ? {}
      : { CAIRN_SEARCH_TITLE_BOOST: process.env.CAIRN_SEARCH_TITLE_BOOST }),
    ...env,
  });
  const app = await createHttpApp({ config }, { logger: ['error', 'fatal'] });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.getHttpServer().address();
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  return { app, baseUrl: `http://127.0.0.1:${address.port}`, stores: app.get<Stores>(STORES), config };
}

import 'reflect-metadata';
import cluster from 'node:cluster';
import { Logger } from '@nestjs/common';
import { loadConfig } from './config/config';
import { recordServerAddress } from './config/server-address';
import { createHttpApp } from './http/create-http-app';
import { seedDemo, printDemo } from './demo/seed-demo';
import { AppError } from './common/errors';
import { serveClusterMetrics } from './observability/metrics-cluster';
import { serverStoreOptions } from './infrastructure/stores';
import { DEMO_SEEDER_ENV, superviseHttpWorkers } from './server/http-workers';

/**
 * `node dist/main.js [--demo]`: serves the API; with --demo, creates the demo organization on first start.
 * With CAIRN_HTTP_WORKERS > 1 this process supervises that many worker processes sharing the port.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const demo = process.argv.includes('--demo');
  if (config.httpWorkers > 1 && cluster.isPrimary) {
    if (config.metrics) serveClusterMetrics();
    // Workers run this file directly: through the CLI they would parse `cairn`'s arguments again.
    process.exitCode = await superviseHttpWorkers({
      workers: config.httpWorkers,
      entry: __filename,
      args: process.argv.slice(2),
      startTimeoutMs: config.httpWorkerStartTimeoutMs,
    });
    return;
  }
  const app = await createHttpApp({ config, storeOptions: serverStoreOptions(config.httpWorkers) });
  await app.listen({ port: config.port, host: config.host });
  recordServerAddress(config, process.pid, new Date());
  const logger = new Logger('cairn');
  logger.log(`listening on ${config.publicUrl} (data: ${config.dataDir}, pid ${process.pid})`);
  if (demo && (cluster.isPrimary || process.env[DEMO_SEEDER_ENV] === '1')) {
    const summary = await seedDemo(app);
    process.stderr.write(printDemo(summary, config.publicUrl));
  }
}

main().catch((error: unknown) => {
  const message =
    error instanceof AppError
      ? `${error.code}: ${error.message}`
      : error instanceof Error
        ? error.stack
        : String(error);
  process.stderr.write(`cairn failed to start: ${message}\n`);
  process.exit(1);
});

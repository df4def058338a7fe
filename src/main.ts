import 'reflect-metadata';
import cluster from 'node:cluster';
import { Logger } from '@nestjs/common';
import { DEMO_MODEL_NAME, DEMO_MODEL_WARNING, demoModelRequested, withDemoModel } from './ai/demo-model';
import { loadConfig } from './config/config';
import { log } from './observability/log';
import { recordServerAddress } from './config/server-address';
import { createHttpApp } from './http/create-http-app';
import { seedDemo, printDemo } from './demo/seed-demo';
import { AppError } from './common/errors';
import { serveClusterMetrics } from './observability/metrics-cluster';
import { serverStoreOptions } from './infrastructure/stores';
import { DEMO_SEEDER_ENV, superviseHttpWorkers } from './server/http-workers';

/**
 * `node dist/main.js [--demo] [--demo-model]`: serves the API; with --demo, creates the demo organization on first
 * start; with --demo-model (or CAIRN_DEMO_MODEL=on), replies come from the demo model (src/ai/demo-model.ts).
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
  // Each worker runs its own demo model: a model call never leaves the process that makes it.
  const demoModel = demoModelRequested(config, process.argv);
  const appConfig = demoModel ? await withDemoModel(config) : config;
  const app = await createHttpApp({
    config: appConfig,
    storeOptions: serverStoreOptions(config.httpWorkers),
  });
  await app.listen({ port: config.port, host: config.host });
  recordServerAddress(config, process.pid, new Date());
  const logger = new Logger('cairn');
  logger.log(`listening on ${config.publicUrl} (data: ${config.dataDir}, pid ${process.pid})`);
  if (demoModel) log().warn({ code: 'demo_model', model: DEMO_MODEL_NAME }, DEMO_MODEL_WARNING);
  if (demo && (cluster.isPrimary || process.env[DEMO_SEEDER_ENV] === '1')) {
    const summary = await seedDemo(app);
    process.stderr.write(printDemo(summary, config.publicUrl, demoModel));
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

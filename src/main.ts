import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { loadConfig } from './config/config';
import { createHttpApp } from './http/create-http-app';
import { seedDemo, printDemo } from './demo/seed-demo';
import { AppError } from './common/errors';

/** `node dist/main.js [--demo]`: serves the API; with --demo, creates the demo organization on first start. */
async function main(): Promise<void> {
  const config = loadConfig();
  const app = await createHttpApp({ config });
  await app.listen({ port: config.port, host: config.host });
  const logger = new Logger('cairn');
  logger.log(`listening on ${config.publicUrl} (data: ${config.dataDir})`);
  if (process.argv.includes('--demo')) {
    const demo = await seedDemo(app);
    process.stderr.write(printDemo(demo, config.publicUrl));
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

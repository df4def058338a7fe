import 'reflect-metadata';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from './config/config';
import { createHttpApp } from './http/create-http-app';
import { buildOpenApiDocument } from './http/openapi';

/**
 * `node dist/openapi-export.js FILE`: writes the OpenAPI document the server serves at /openapi.json (built over a
 * throw-away data directory, never listening). `npm run client:generate` generates the typed client from it.
 */
async function main(file: string | undefined): Promise<void> {
  if (!file) throw new Error('usage: node dist/openapi-export.js FILE');
  const dir = mkdtempSync(join(tmpdir(), 'cairn-openapi-'));
  try {
    const config = loadConfig({ CAIRN_DATA_DIR: dir, PORT: '3000', HOST: '127.0.0.1' });
    const app = await createHttpApp({ config }, { logger: false });
    await app.init();
    writeFileSync(file, `${JSON.stringify(buildOpenApiDocument(app), null, 2)}\n`);
    await app.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main(process.argv[2]).catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { requireBuiltServer, startServerProcess, stopAllServers } from '../support/server-process';

/** What an operator sees at start when replies cannot work (issue: no model configured must not be silent). */
describe('start-up warnings', () => {
  const dirs: string[] = [];
  const dataDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'cairn-startup-'));
    dirs.push(dir);
    return dir;
  };
  beforeAll(() => requireBuiltServer());
  afterAll(async () => {
    await stopAllServers();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('warns once at start that replies cannot work without models', async () => {
    const server = await startServerProcess({
      CAIRN_DATA_DIR: dataDir(),
      CAIRN_COMPOSER_MODEL: '',
      CAIRN_REVIEWER_MODEL: '',
    });
    const lines = await server.waitForLines(/replies cannot work/);
    await server.waitForLines(/listening on/);
    expect(
      server
        .output()
        .split('\n')
        .filter((line) => line.includes('replies cannot work')),
    ).toHaveLength(1);
    expect(lines[0]).toContain('CAIRN_COMPOSER_MODEL and CAIRN_REVIEWER_MODEL unset');
    expect(lines[0]).toContain('assistant_runtime_unavailable (not retryable)');
    await server.stop();
  });

  it('says nothing of it when both models are set', async () => {
    const server = await startServerProcess({
      CAIRN_DATA_DIR: dataDir(),
      CAIRN_COMPOSER_MODEL: 'composer',
      CAIRN_REVIEWER_MODEL: 'reviewer',
      OPENAI_BASE_URL: 'http://127.0.0.1:9/v1',
    });
    await server.waitForLines(/listening on/);
    expect(server.output()).not.toContain('replies cannot work');
    await server.stop();
  });
});

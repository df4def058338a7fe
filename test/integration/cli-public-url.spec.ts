import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { startServerProcess, stopAllServers } from '../support/server-process';
import { makeTempDir } from '../support/temp-dir';

const BIN = join(__dirname, '..', '..', 'bin', 'cairn.js');

interface Run {
  code: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests assert on arbitrary JSON output
  json: any;
  stderr: string;
}

/** `cairn ...args` with exactly this environment (no PORT / CAIRN_PUBLIC_URL inherited from the test run). */
function run(env: Record<string, string>, ...args: string[]): Promise<Run> {
  const base = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' };
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [BIN, ...args],
      { env: { ...base, ...env }, timeout: 60_000 },
      (error, stdout, stderr) => {
        let json: unknown = null;
        try {
          json = JSON.parse(stdout);
        } catch {
          json = null;
        }
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, json, stderr });
      },
    );
  });
}

/** The CLI and the server agree on the public URL, and the CLI says where it took it from. */
describe('CLI public URL and usage errors (real processes)', () => {
  jest.setTimeout(120_000);
  const temp = makeTempDir();
  const dataDir = join(temp.dir, 'data');
  const env = { CAIRN_DATA_DIR: dataDir };
  let org = '';
  let chatbot = '';

  beforeAll(async () => {
    org = String(
      (await run(env, 'org:create', '--name', 'Harbor', '--website-url', 'https://harbor.example.com')).json
        .organization_id,
    );
    chatbot = String((await run(env, 'chatbot:create', org, '--name', 'Harbor bot')).json.chatbot_id);
  });
  afterAll(async () => {
    await stopAllServers();
    temp.cleanup();
  });

  const publish = (extraEnv: Record<string, string>, slug: string) =>
    run(
      { ...env, ...extraEnv },
      'client-page:publish',
      org,
      '--chatbot',
      chatbot,
      '--slug',
      slug,
      '--organization-summary',
      'A harbor cafe.',
      '--assistant-use-summary',
      'Answers questions about tables.',
    );

  it('without a server: PORT/HOST as a server started with this environment would use, and says so', async () => {
    const published = await publish({ PORT: '4100' }, 'harbor-one');
    expect(published.json).toMatchObject({ ok: true, url: 'http://127.0.0.1:4100/clients/harbor-one' });
    expect(published.stderr).toContain(
      'public URL http://127.0.0.1:4100 (from PORT=4100 and HOST=127.0.0.1; no CAIRN_PUBLIC_URL',
    );
  });

  it('with a server running on the data directory: the server’s URL, whatever the CLI’s PORT', async () => {
    const server = await startServerProcess({ ...env, CAIRN_PUBLIC_RATE_LIMIT: '0' });
    const published = await publish({ PORT: '4100' }, 'harbor-two');
    expect(published.json).toMatchObject({ ok: true, url: `${server.baseUrl}/clients/harbor-two` });
    expect(published.stderr).toContain(`(from the server running on this data directory (pid ${server.pid}`);
    const page = await fetch(`${server.baseUrl}/api/cairn-client-pages/harbor-two`);
    expect(((await page.json()) as { client_page: { url: string } }).client_page.url).toBe(
      published.json.url,
    );
    // CAIRN_PUBLIC_URL wins, as it does for the server.
    const canonical = await publish({ CAIRN_PUBLIC_URL: 'https://directory.example.org' }, 'harbor-three');
    expect(canonical.json).toMatchObject({ url: 'https://directory.example.org/clients/harbor-three' });
    expect(canonical.stderr).toContain('(from CAIRN_PUBLIC_URL)');
    await server.stop();
    const after = await publish({}, 'harbor-four');
    expect(after.json).toMatchObject({ url: 'http://127.0.0.1:3000/clients/harbor-four' });
  });

  it('no command: the JSON usage_error and exit 2; a missing option: usage_error and exit 1', async () => {
    const none = await run(env);
    expect(none.code).toBe(2);
    expect(none.json).toEqual({
      ok: false,
      error: {
        code: 'usage_error',
        message: 'usage: cairn <command> [arguments] [options]; `npx cairn --help` lists the commands',
        details: [{ message: 'no command given' }],
      },
    });
    const missing = await run(env, 'chatbot:create', org);
    expect(missing.code).toBe(1);
    expect(missing.json).toEqual({
      ok: false,
      error: {
        code: 'usage_error',
        message: 'missing required option --name',
        details: [{ field: '--name', message: 'required' }],
      },
    });
  });
});

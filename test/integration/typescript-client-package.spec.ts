import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { startModelApp } from '../support/reply-fixtures';
import { createReplyTenant, QUESTION, type ReplyTenant } from '../support/reply-tenant';
import type { TestApp } from '../support/test-app';

const run = promisify(execFile);
const ROOT = resolve(__dirname, '..', '..');
const CLIENT = join(ROOT, 'clients', 'typescript');

/**
 * `@cairn/client` as a user gets it: `npm pack`ed (its prepack builds ESM + CJS + .d.ts), installed into an empty
 * project with openapi-fetch as its dependency (packed from the local install: no network), then run under plain
 * `node` (require and import) against a live server, and type-checked as a consumer's TypeScript.
 */
describe('the packed @cairn/client in an empty project', () => {
  let dir: string;
  let project: string;
  let t: TestApp;
  let close: () => Promise<void>;
  let tenant: ReplyTenant;

  /** Runs a file of the project under plain node (nothing on stderr); returns its stdout as JSON. */
  async function node(file: string, env: Record<string, string> = {}): Promise<unknown> {
    const { stdout, stderr } = await run(process.execPath, [file], {
      cwd: project,
      env: { PATH: process.env.PATH ?? '', BASE_URL: t.baseUrl, TOKEN: tenant.token, ...env },
      timeout: 60_000,
    });
    expect(stderr).toBe(''); // no module-format warning, no deprecation
    return JSON.parse(stdout);
  }

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cairn-client-pack-'));
    const tarballs = join(dir, 'tarballs');
    project = join(dir, 'project');
    mkdirSync(tarballs);
    mkdirSync(project);
    const pack = async (cwd: string, ...args: string[]): Promise<string[]> => {
      const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', tarballs, ...args], {
        cwd,
        timeout: 180_000,
      });
      return (JSON.parse(stdout) as Array<{ filename: string }>).map((p) => join(tarballs, p.filename));
    };
    // The client: prepack runs its build (tsc twice). Its dependency and that one's: from the local install.
    const [client] = await pack(CLIENT);
    const openapiFetch = dirname(require.resolve('openapi-fetch/package.json', { paths: [ROOT] }));
    const helpers = dirname(
      require.resolve('openapi-typescript-helpers/package.json', { paths: [openapiFetch] }),
    );
    const dependencies = await pack(ROOT, '--ignore-scripts', openapiFetch, helpers);
    writeFileSync(
      join(project, 'package.json'),
      JSON.stringify({ name: 'consumer', version: '1.0.0', private: true }),
    );
    await run(
      'npm',
      [
        'install',
        '--offline',
        '--registry=http://127.0.0.1:9/',
        '--no-audit',
        '--no-fund',
        '--ignore-scripts',
        `--cache=${join(dir, 'npm-cache')}`,
        client,
        ...dependencies,
      ],
      { cwd: project, timeout: 180_000 },
    );
    ({ t, close } = await startModelApp());
    tenant = await createReplyTenant(t);
  }, 400_000);
  afterAll(async () => {
    await close?.();
    rmSync(dir, { recursive: true, force: true });
  });

  it('ships built JavaScript and declarations, with openapi-fetch as a real dependency', () => {
    const installed = JSON.parse(
      readFileSync(join(project, 'node_modules', '@cairn', 'client', 'package.json'), 'utf8'),
    );
    expect(installed.dependencies).toEqual({ 'openapi-fetch': expect.any(String) });
    expect(installed.exports['.']).toMatchObject({
      import: { types: './dist/esm/index.d.ts', default: './dist/esm/index.js' },
      require: { types: './dist/cjs/index.d.ts', default: './dist/cjs/index.js' },
    });
    const consumer = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8'));
    expect(Object.keys(consumer.dependencies).sort()).toEqual([
      '@cairn/client',
      'openapi-fetch',
      'openapi-typescript-helpers',
    ]);
  });

  it('require(): checks the token, searches, and a bad token is a CairnApiError', async () => {
    writeFileSync(
      join(project, 'consumer.cjs'),
      `const { createCairnClient, CairnApiError } = require('@cairn/client');
(async () => {
  const cairn = createCairnClient({ baseUrl: process.env.BASE_URL, token: process.env.TOKEN });
  const self = await cairn.api.GET('/app/api/tool-connectors/v1/connector');
  const search = await cairn.api.POST('/app/api/tool-connectors/v1/memory/search', { body: { query: 'clinic open' } });
  const wrong = createCairnClient({ baseUrl: process.env.BASE_URL, token: 'cairn_wrong' });
  const refused = await wrong.requestReply({ external_thread_id: 't', idempotency_key: 'k', payload: { text: 'x' } })
    .catch((error) => ({ isCairnApiError: error instanceof CairnApiError, status: error.status, code: error.code }));
  console.log(JSON.stringify({ self: self.data, results: search.data.results.length, refused }));
})().catch((error) => { console.error(error); process.exit(1); });
`,
    );
    expect(await node('consumer.cjs')).toEqual({
      self: expect.objectContaining({ ok: true, organization_id: tenant.organization_id }),
      results: 1,
      refused: { isCairnApiError: true, status: 401, code: 'invalid_token' },
    });
  });

  it('import: a reply from the model double, then feedback on its message', async () => {
    writeFileSync(
      join(project, 'consumer.mjs'),
      `import { createCairnClient } from '@cairn/client';
const cairn = createCairnClient({ baseUrl: process.env.BASE_URL, token: process.env.TOKEN });
const result = await cairn.requestReply({
  external_thread_id: 'packed-1', idempotency_key: 'packed-1', channel: 'email',
  payload: { text: process.env.QUESTION, subject: 'Hours', from: 'pat@example.com' },
});
const feedback = await cairn.accept(result.reply.message_id, { external_feedback_id: 'packed-fb-1' });
console.log(JSON.stringify({ outcome: result.outcome, text: result.reply.suggested_response.text, feedback }));
`,
    );
    expect(await node('consumer.mjs', { QUESTION })).toEqual({
      outcome: 'reply',
      text: expect.stringContaining('Monday to Friday'),
      feedback: expect.objectContaining({ ok: true, outcome: 'accepted', idempotent_replay: false }),
    });
  });

  it('type-checks as a consumer’s TypeScript (node16 resolution picks the declarations from exports)', async () => {
    writeFileSync(
      join(project, 'consumer.mts'),
      `import { createCairnClient, type ReplyOutcome } from '@cairn/client';
const cairn = createCairnClient({ baseUrl: 'http://127.0.0.1:3000', timeoutMs: 5000, maxAttempts: 2 });
export const outcome: Promise<ReplyOutcome> = cairn.requestReply({ external_thread_id: 't', idempotency_key: 'k', payload: { text: 'x' } });
// @ts-expect-error the path is typed: an unknown one does not compile
cairn.api.GET('/no/such/path');
`,
    );
    const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    const args = [
      '--noEmit',
      '--strict',
      '--module',
      'node16',
      '--moduleResolution',
      'node16',
      '--target',
      'ES2022',
    ];
    const types = ['--typeRoots', join(ROOT, 'node_modules', '@types'), '--types', 'node', 'consumer.mts'];
    await expect(
      run(process.execPath, [tsc, ...args, ...types], { cwd: project, timeout: 120_000 }),
    ).resolves.toBeDefined();
  });
});

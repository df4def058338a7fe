import { existsSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { editData } from '../support/sqlite-tampering';
import { openSqlite } from '../../src/infrastructure/sqlite/sqlite-connection';
import { cairn } from '../support/cli';
import { http, startTestApp } from '../support/test-app';
import { makeTempDir } from '../support/temp-dir';

const SELF = '/app/api/tool-connectors/v1/connector';

describe('operator CLI (real processes, embedded store, no server)', () => {
  jest.setTimeout(120_000);
  const temp = makeTempDir();
  afterAll(() => temp.cleanup());
  const run = (...args: string[]) => cairn(temp.dir, ...args);

  it('org:create prints exactly one JSON object with the new ids', async () => {
    const res = await run('org:create', '--name', 'Acme Dental', '--website-url', 'https://acme.example.com');
    expect(res.code).toBe(0);
    expect(res.json).toEqual({ ok: true, organization_id: expect.any(Number), slug: 'acme-dental' });
    expect(res.stdout.trim().startsWith('{')).toBe(true);
    expect(res.stdout.trim().endsWith('}')).toBe(true);
  });

  it('--help lists every command, serve and mcp included', async () => {
    const help = await run('--help');
    expect(help.code).toBe(0);
    const listed = [...help.stdout.matchAll(/^ {2}(\S+)/gm)].map((match) => match[1]);
    expect(listed).toEqual(
      expect.arrayContaining(['serve', 'mcp', 'org:create', 'memory:ingest', 'audit:verify']),
    );
  });

  it('--help (alone or after a command) leaves the data directory untouched, and no scratch behind', async () => {
    const fresh = makeTempDir();
    const scratch = () => readdirSync(tmpdir()).filter((name) => name.startsWith('cairn-help-'));
    const before = scratch();
    try {
      const data = join(fresh.dir, 'data');
      for (const args of [['--help'], ['org:create', '--help'], ['audit:verify', '-h']]) {
        const res = await cairn(data, ...args);
        expect(res.code).toBe(0);
      }
      expect(existsSync(data)).toBe(false);
      expect(scratch()).toEqual(before);
    } finally {
      fresh.cleanup();
    }
  });

  it('failures exit non-zero with the JSON error shape', async () => {
    const missing = await run('org:create');
    expect(missing.code).toBe(1);
    expect(missing.json).toEqual({
      ok: false,
      error: {
        code: 'usage_error',
        message: expect.stringContaining('--name'),
        details: expect.any(Array),
      },
    });
    const taken = await run('org:create', '--name', 'Acme Dental');
    expect(taken).toMatchObject({ code: 1, json: { ok: false, error: { code: 'slug_taken' } } });
    const unknown = await run('no:such-command');
    expect(unknown.code).toBe(2);
    expect(unknown.json).toMatchObject({ ok: false, error: { code: 'usage_error' } });
    const missingArgument = await run('chatbot:create');
    expect(missingArgument.code).toBe(1);
    expect(missingArgument.json).toMatchObject({ ok: false, error: { code: 'usage_error' } });
    const badId = await run('org:pause-agents', 'abc');
    expect(badId).toMatchObject({ code: 1, json: { error: { code: 'validation_failed' } } });
    const notFound = await run('org:pause-agents', '999999');
    expect(notFound).toMatchObject({ code: 1, json: { error: { code: 'not_found' } } });
  });

  it('organization, chatbot and connector commands', async () => {
    const org = (await run('org:create', '--name', 'Beta', '--slug', 'beta')).json.organization_id;
    expect((await run('org:pause-agents', String(org))).json).toMatchObject({
      agent_activity_paused: true,
      changed: true,
    });
    expect((await run('org:pause-agents', String(org))).json).toMatchObject({ changed: false });
    expect((await run('org:resume-agents', String(org))).json).toMatchObject({
      agent_activity_paused: false,
    });
    expect((await run('org:set-plan-limit', String(org), '--monthly-replies', '250')).json).toMatchObject({
      monthly_reply_limit: 250,
    });

    const bot = await run(
      'chatbot:create',
      String(org),
      '--name',
      'Helper',
      '--allowed-domain',
      'www.beta.example',
    );
    expect(bot.json).toEqual({ ok: true, chatbot_id: expect.any(Number) });
    expect((await run('chatbot:pause', String(org), String(bot.json.chatbot_id))).json).toMatchObject({
      paused: true,
      changed: true,
    });
    expect((await run('chatbot:resume', String(org), String(bot.json.chatbot_id))).json).toMatchObject({
      paused: false,
      changed: true,
    });

    const connector = await run(
      'connector:create',
      String(org),
      '--name',
      'Zendesk',
      '--capabilities',
      'memory_search,assistant_reply',
    );
    expect(connector.json).toMatchObject({
      ok: true,
      connector_id: expect.any(Number),
      client_key: expect.stringMatching(/^ck_/),
      token: expect.stringMatching(/^cairn_[A-Za-z0-9_-]{43}$/),
    });
    const id = String(connector.json.connector_id);
    const bad = await run('connector:create', String(org), '--name', 'X', '--capabilities', 'root');
    expect(bad).toMatchObject({ code: 1, json: { error: { code: 'validation_failed' } } });
    const caps = await run('connector:set-capabilities', String(org), id, '--capabilities', 'memory_search');
    expect(caps.json).toMatchObject({ capabilities: ['memory_search'], changed: true });
    const rotated = await run('connector:rotate-token', String(org), id);
    expect(rotated.json.token).toMatch(/^cairn_/);
    expect((await run('connector:revoke-token', String(org), id)).json.revoked_token_id).toMatch(/^tok_/);

    const dry = await run(
      'tool-connectors:set-grounding-policy',
      String(org),
      id,
      '--policy=standard',
      '--dry-run',
    );
    expect(dry.json).toMatchObject({
      dry_run: true,
      current_policy: 'strict',
      requested_policy: 'standard',
      would_change: true,
    });
    const status = (await run('audit:stream', `connector-${id}`)).json.events.length;
    const real = await run('tool-connectors:set-grounding-policy', String(org), id, '--policy=standard');
    expect(real.json).toMatchObject({ dry_run: false, grounding_policy: 'standard', changed: true });
    const after = (await run('audit:stream', `connector-${id}`)).json.events;
    expect(after).toHaveLength(status + 1);
    expect(after[after.length - 1].type).toBe('ConnectorGroundingPolicySet');

    // Another organization's connector is not found, never changed.
    const other = (await run('org:create', '--name', 'Gamma')).json.organization_id;
    expect((await run('connector:rotate-token', String(other), id)).json).toMatchObject({
      error: { code: 'not_found' },
    });
  });

  it('projections:status and projections:rebuild', async () => {
    const status = await run('projections:status');
    expect(status.code).toBe(0);
    expect(status.json.projections.map((p: { name: string }) => p.name)).toEqual([
      'organizations',
      'chatbots',
      'connectors',
      'memory',
      'memory-usage',
      'memory-proposals',
      'conversations',
      'replies',
      'assistant-tools',
      'client-pages',
    ]);
    for (const p of status.json.projections) expect(p.lag).toBe(0);
    const rebuilt = await run('projections:rebuild', 'connectors');
    expect(rebuilt.json.rebuilt).toEqual([
      { name: 'connectors', position: expect.any(Number), duration_ms: expect.any(Number) },
    ]);
    expect((await run('projections:rebuild', 'nope')).json).toMatchObject({
      error: { code: 'validation_failed' },
    });
  });

  it('audit:verify passes, then fails naming the first broken link after a row is edited in the SQLite file', async () => {
    const ok = await run('audit:verify');
    expect(ok).toMatchObject({
      code: 0,
      json: { ok: true, verified: true, streams: expect.any(Number), events: expect.any(Number) },
    });
    const stream = await run('audit:stream', 'organization-1');
    expect(stream.json.events[0]).toMatchObject({
      revision: 0,
      type: 'OrganizationRegistered',
      metadata: { prev_hash: '0'.repeat(64) },
    });

    const db = openSqlite({ path: `${temp.dir}/cairn.sqlite` });
    editData(db, 'stream = ? AND revision = 0', ['organization-1'], { name: 'Mallory Dental' });
    db.close();
    const broken = await run('audit:verify');
    expect(broken.code).toBe(1);
    expect(broken.json).toMatchObject({
      ok: false,
      error: {
        code: 'hash_chain_broken',
        details: [{ stream: 'organization-1', revision: 0, reason: 'hash_mismatch' }],
      },
    });
  });
});

describe('operator CLI next to a running server on the same data directory', () => {
  it('CLI changes are visible to the server at once (read-your-writes across processes)', async () => {
    const t = await startTestApp();
    try {
      const org = (await cairn(t.dataDir, 'org:create', '--name', 'Live')).json.organization_id;
      const created = await cairn(
        t.dataDir,
        'connector:create',
        String(org),
        '--name',
        'C',
        '--capabilities',
        'memory_search',
      );
      expect(created.code).toBe(0);
      expect((await http(t.baseUrl, 'GET', SELF, { token: created.json.token })).status).toBe(200);
      const rotated = await cairn(
        t.dataDir,
        'connector:rotate-token',
        String(org),
        String(created.json.connector_id),
      );
      expect((await http(t.baseUrl, 'GET', SELF, { token: created.json.token })).status).toBe(401);
      expect((await http(t.baseUrl, 'GET', SELF, { token: rotated.json.token })).status).toBe(200);
      const status = await cairn(t.dataDir, 'projections:status');
      expect(status.json.projections.every((p: { lag: number }) => p.lag === 0)).toBe(true);
    } finally {
      await t.close();
    }
  });
});

import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openSqlite } from '../../src/infrastructure/sqlite/sqlite-connection';
import { cairn } from '../support/cli';
import { readModelSnapshot } from '../support/read-model-snapshot';
import { startServerProcess, stopAllServers, type ServerProcess } from '../support/server-process';
import { makeTempDir } from '../support/temp-dir';

const MEMORY = '/app/api/tool-connectors/v1/memory';

describe('cairn backup / restore (real processes, a live server under write load)', () => {
  jest.setTimeout(240_000);
  const temp = makeTempDir();
  const live = join(temp.dir, 'live');
  const backup = join(temp.dir, 'backup');
  const restored = join(temp.dir, 'restored');
  let server: ServerProcess;
  let token: string;
  afterAll(async () => {
    await stopAllServers();
    temp.cleanup();
  });

  beforeAll(async () => {
    const org = (await cairn(live, 'org:create', '--name', 'Backup Co')).json.organization_id;
    const connector = await cairn(
      live,
      'connector:create',
      String(org),
      '--name',
      'Writer',
      '--capabilities',
      'memory_search,memory_save',
    );
    token = connector.json.token;
    server = await startServerProcess({ CAIRN_DATA_DIR: live });
  });

  const post = async (path: string, body: unknown): Promise<number> => {
    const res = await fetch(`${server.baseUrl}${MEMORY}/${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    await res.arrayBuffer();
    return res.status;
  };

  it('backs up while saves and searches keep arriving; the copy verifies and restores to identical read models', async () => {
    let stop = false;
    let saved = 0;
    const failures: number[] = [];
    const writer = async (lane: number): Promise<void> => {
      for (let i = 0; !stop; i++) {
        const status = await post('save', {
          kind: 'note',
          title: `Lane ${lane} note ${i}`,
          content: `Lane ${lane} wrote note ${i} about kiwi deliveries on day ${i % 7}.`,
          visibility: 'organization_internal',
        });
        if (status === 200) saved += 1;
        else failures.push(status);
        if (i % 3 === 0 && (await post('search', { query: `kiwi ${i % 7}` })) !== 200) failures.push(-1);
      }
    };
    const lanes = [0, 1, 2, 3].map(writer);
    while (saved < 20) await new Promise((resolve) => setTimeout(resolve, 50));
    const savedBefore = saved;
    const result = await cairn(live, 'backup', backup);
    const savedDuring = saved - savedBefore;
    stop = true;
    await Promise.all(lanes);
    expect(failures).toEqual([]);
    expect(result.code).toBe(0);
    // The load really ran through the backup: saves kept being answered while it copied and verified.
    expect(savedDuring).toBeGreaterThan(0);
    expect(result.json).toMatchObject({
      ok: true,
      format: 'cairn-backup/1',
      // Every SQLite file of the data directory: the data keys (erasure's key store) and the events.
      files: [
        { path: 'cairn-keys.sqlite', bytes: expect.any(Number), sha256: expect.any(String) },
        { path: 'cairn.sqlite', bytes: expect.any(Number), sha256: expect.any(String) },
      ],
      verified: { events: expect.any(Number), log_head: { global_hash: expect.any(String) } },
    });
    expect(result.json.verified.events).toBeGreaterThan(20);
    // The live server's projection leases are not part of the copy.
    const leases = (file: string) => {
      const db = openSqlite({ path: file, readonly: true, mmapBytes: 0 });
      const count = db.prepare('SELECT count(*) FROM leases').pluck().get();
      db.close();
      return count;
    };
    expect(leases(join(live, 'cairn.sqlite'))).toBeGreaterThan(0);
    expect(leases(join(backup, 'cairn.sqlite'))).toBe(0);

    // Refused while the live server holds its data directory, even with --force.
    const busy = await cairn(live, 'restore', backup, '--force');
    expect(busy).toMatchObject({ code: 1, json: { error: { code: 'data_directory_in_use' } } });
    await server.stop();

    const restore = await cairn(restored, 'restore', backup);
    expect(restore).toMatchObject({
      code: 0,
      json: { restored: { files: ['cairn-keys.sqlite', 'cairn.sqlite'] } },
    });
    expect(restore.json.restored.events).toBe(result.json.verified.events);
    const verify = await cairn(restored, 'audit:verify');
    expect(verify.json).toMatchObject({ verified: true, events: result.json.verified.events });
    expect(verify.json.log_head).toEqual(result.json.verified.log_head);

    // Projections catch up from the restored read models, then a full replay must give the same rows.
    const caughtUp = await startServerProcess({ CAIRN_DATA_DIR: restored });
    const ready = async (): Promise<boolean> => {
      const res = await fetch(`${caughtUp.baseUrl}/ready`);
      const body = (await res.json()) as { projections: { lag: number }[] };
      return body.projections.every((projection) => projection.lag === 0);
    };
    const deadline = Date.now() + 60_000;
    while (!(await ready()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    await caughtUp.stop();
    const file = join(restored, 'cairn.sqlite');
    const incremental = readModelSnapshot(file);
    expect(incremental.read_documents.length).toBeGreaterThan(20);
    expect(Object.keys(incremental)).toEqual(
      expect.arrayContaining(['read_documents', 'search_index_documents', 'search_index_postings']),
    );
    const rebuild = await cairn(restored, 'projections:rebuild');
    expect(rebuild.code).toBe(0);
    expect(readModelSnapshot(file)).toEqual(incremental);
  });

  it('restore refuses a non-empty directory without --force, and a damaged backup', async () => {
    const other = join(temp.dir, 'other');
    mkdirSync(other);
    writeFileSync(join(other, 'notes.txt'), 'keep me');
    expect(await cairn(other, 'restore', backup)).toMatchObject({
      code: 1,
      json: { error: { code: 'data_directory_not_empty' } },
    });
    expect(existsSync(join(other, 'cairn.sqlite'))).toBe(false);
    const forced = await cairn(other, 'restore', backup, '--force');
    expect(forced.code).toBe(0);
    expect(readFileSync(join(other, 'notes.txt'), 'utf8')).toBe('keep me');

    const manifest = JSON.parse(readFileSync(join(backup, 'cairn-backup.json'), 'utf8'));
    manifest.files[0].sha256 = '0'.repeat(64);
    const damaged = join(temp.dir, 'damaged');
    mkdirSync(damaged);
    writeFileSync(join(damaged, 'cairn-backup.json'), JSON.stringify(manifest));
    writeFileSync(join(damaged, 'cairn.sqlite'), readFileSync(join(backup, 'cairn.sqlite')));
    expect(await cairn(join(temp.dir, 'fresh'), 'restore', damaged)).toMatchObject({
      code: 1,
      json: { error: { code: 'backup_damaged' } },
    });
    expect(await cairn(join(temp.dir, 'fresh'), 'backup', join(temp.dir, 'x'))).toMatchObject({
      code: 1,
      json: { error: { code: 'no_embedded_store' } },
    });
  });
});

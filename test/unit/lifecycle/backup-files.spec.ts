import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { describeFile, type BackupManifest } from '../../../src/lifecycle/backup-manifest';
import { join } from 'node:path';
import { SqliteEventStore } from '../../../src/infrastructure/event-store/sqlite/sqlite-event-store';
import { openSqlite } from '../../../src/infrastructure/sqlite/sqlite-connection';
import { backupDataDir } from '../../../src/lifecycle/backup';
import { restoreDataDir } from '../../../src/lifecycle/restore';
import { findSqliteFiles } from '../../../src/lifecycle/sqlite-files';
import { makeTempDir } from '../../support/temp-dir';

describe('backup enumerates the data directory’s SQLite files', () => {
  const temp = makeTempDir();
  afterAll(() => temp.cleanup());

  it('copies every database found by its header (a later key store included), nothing else', async () => {
    const data = join(temp.dir, 'data');
    const db = openSqlite({ path: join(data, 'cairn.sqlite') });
    const store = new SqliteEventStore(db);
    const metadata = {
      organization_id: '1',
      correlation_id: 'c',
      causation_id: null,
      actor: 'operator:test',
      occurred_at: new Date().toISOString(),
      schema_version: 1,
    };
    await store.append(
      'org-1',
      [{ type: 'OrganizationCreated', data: { name: 'A' }, metadata }],
      'no_stream',
    );
    const keys = openSqlite({ path: join(data, 'keys', 'erasure-keys.db') });
    keys.exec(
      "CREATE TABLE subject_keys (subject TEXT PRIMARY KEY, key BLOB); INSERT INTO subject_keys VALUES ('s', x'01')",
    );
    writeFileSync(join(data, 'notes.sqlite'), 'not a database');
    mkdirSync(join(data, 'vector-index'));
    writeFileSync(join(data, 'vector-index', 'manifest.json'), '{}');

    expect(findSqliteFiles(data)).toEqual(['cairn.sqlite', 'keys/erasure-keys.db']);
    const { manifest } = await backupDataDir(data, join(temp.dir, 'backup'));
    keys.close();
    await store.close();
    db.close();
    expect(manifest.files.map((file) => file.path)).toEqual(['cairn.sqlite', 'keys/erasure-keys.db']);
    expect(manifest.verified.events).toBe(1);
    expect(existsSync(join(temp.dir, 'backup', 'vector-index'))).toBe(false);

    const result = await restoreDataDir(join(temp.dir, 'backup'), join(temp.dir, 'restored'), {
      force: false,
    });
    expect(result.files).toEqual(['cairn.sqlite', 'keys/erasure-keys.db']);
    const copy = openSqlite({ path: join(temp.dir, 'restored', 'keys', 'erasure-keys.db'), readonly: true });
    expect(copy.prepare('SELECT subject FROM subject_keys').pluck().all()).toEqual(['s']);
    copy.close();
  });

  it('a backup whose log was edited (manifest recomputed) is refused by restore', async () => {
    const backup = join(temp.dir, 'backup');
    const edited = join(temp.dir, 'edited');
    mkdirSync(edited);
    copyFileSync(join(backup, 'cairn.sqlite'), join(edited, 'cairn.sqlite'));
    const db = openSqlite({ path: join(edited, 'cairn.sqlite'), mmapBytes: 0 });
    db.prepare('UPDATE events SET data = ? WHERE position = 1').run('{"name":"B"}');
    db.pragma('journal_mode = DELETE');
    db.close();
    const manifest = JSON.parse(readFileSync(join(backup, 'cairn-backup.json'), 'utf8')) as BackupManifest;
    manifest.files = [await describeFile(edited, 'cairn.sqlite')];
    writeFileSync(join(edited, 'cairn-backup.json'), JSON.stringify(manifest));
    await expect(restoreDataDir(edited, join(temp.dir, 'never'), { force: false })).rejects.toMatchObject({
      code: 'backup_verification_failed',
    });
    expect(existsSync(join(temp.dir, 'never', 'cairn.sqlite'))).toBe(false);
  });

  it('a data directory whose log does not verify gives no backup (no manifest)', async () => {
    const source = join(temp.dir, 'edited');
    await expect(backupDataDir(source, join(temp.dir, 'backup-of-edited'))).rejects.toMatchObject({
      code: 'backup_verification_failed',
    });
    expect(existsSync(join(temp.dir, 'backup-of-edited', 'cairn-backup.json'))).toBe(false);
  });

  it('refuses a backup path inside the data directory or one that is not empty', async () => {
    const data = join(temp.dir, 'data');
    await expect(backupDataDir(data, join(data, 'inside'))).rejects.toMatchObject({ code: 'usage_error' });
    await expect(backupDataDir(data, join(temp.dir, 'backup'))).rejects.toMatchObject({
      code: 'backup_target_not_empty',
    });
  });
});

import { randomBytes } from 'node:crypto';
import type { Statement } from 'better-sqlite3';
import { openSqlite, type SqliteDatabase } from '../sqlite/sqlite-connection';
import type { DataKey, DataKeyStore } from './data-key-store.port';

/**
 * The embedded key store: a SQLite file of its own (`cairn-keys.sqlite` beside `cairn.sqlite`), so the event file
 * and its backups hold no key. Deletes overwrite the freed bytes (`secure_delete`) and every destruction is
 * checkpointed into the main file and the WAL truncated, so a destroyed key is not left on disk by SQLite.
 * Keys are cached per process; another process's destruction (a CLI erase beside a running server) is seen on the
 * next read through `PRAGMA data_version`, which changes whenever another connection commits.
 */
export class SqliteDataKeyStore implements DataKeyStore {
  private readonly db: SqliteDatabase;
  private readonly byId = new Map<string, Buffer>();
  private readonly currentBySubject = new Map<string, DataKey>();
  private seenVersion = -1;
  private readonly statements: {
    current: Statement;
    byId: Statement;
    insert: Statement;
    removeSubject: Statement;
    removeOrganization: Statement;
  };

  constructor(path: string) {
    this.db = openSqlite({ path, mmapBytes: 0, cacheKiB: 2048 });
    this.db.pragma('secure_delete = ON');
    this.db.exec(`CREATE TABLE IF NOT EXISTS data_keys (
      key_id TEXT PRIMARY KEY,
      subject TEXT NOT NULL,
      organization_id INTEGER,
      key BLOB NOT NULL,
      created_at TEXT NOT NULL
    );
    CREATE INDEX IF NOT EXISTS data_keys_subject ON data_keys(subject);
    CREATE INDEX IF NOT EXISTS data_keys_organization ON data_keys(organization_id);`);
    // Prepared once: keyFor and keyById run on every sealed append and read.
    this.statements = {
      current: this.db.prepare(
        'SELECT key_id, key FROM data_keys WHERE subject = ? ORDER BY rowid DESC LIMIT 1',
      ),
      byId: this.db.prepare('SELECT key FROM data_keys WHERE key_id = ?'),
      insert: this.db.prepare(
        'INSERT INTO data_keys (key_id, subject, organization_id, key, created_at) VALUES (?, ?, ?, ?, ?)',
      ),
      removeSubject: this.db.prepare('DELETE FROM data_keys WHERE subject = ?'),
      removeOrganization: this.db.prepare('DELETE FROM data_keys WHERE organization_id = ?'),
    };
  }

  keyFor(subject: string, organizationId: number | null): DataKey {
    const cached = this.currentBySubject.get(subject);
    if (cached) return cached;
    const row = this.statements.current.get(subject) as { key_id: string; key: Buffer } | undefined;
    const found = row ?? this.create(subject, organizationId);
    this.currentBySubject.set(subject, found);
    this.byId.set(found.key_id, found.key);
    return found;
  }

  keyById(keyId: string): Buffer | null {
    const cached = this.byId.get(keyId);
    if (cached) return cached;
    const row = this.statements.byId.get(keyId) as { key: Buffer } | undefined;
    if (!row) return null;
    this.byId.set(keyId, row.key);
    return row.key;
  }

  destroySubjects(names: string[], _organizationId: number | null): number {
    if (names.length === 0) return 0;
    const remove = this.statements.removeSubject;
    const destroyed = this.db.transaction(() => names.reduce((n, s) => n + remove.run(s).changes, 0))();
    this.afterDestroy();
    return destroyed;
  }

  destroyOrganization(organizationId: number): number {
    const destroyed = this.statements.removeOrganization.run(organizationId).changes;
    this.afterDestroy();
    return destroyed;
  }

  close(): void {
    this.db.close();
  }

  private create(subject: string, organizationId: number | null): DataKey {
    const key: DataKey = { key_id: randomBytes(8).toString('hex'), key: randomBytes(32) };
    this.statements.insert.run(key.key_id, subject, organizationId, key.key, new Date().toISOString());
    return key;
  }

  private afterDestroy(): void {
    this.byId.clear();
    this.currentBySubject.clear();
    // The deleted rows were overwritten in their pages (secure_delete); the WAL still holds the pages as they
    // were before: copy the new pages into the file and empty the WAL.
    this.db.pragma('wal_checkpoint(TRUNCATE)');
    this.seenVersion = this.dataVersion();
  }

  refresh(): void {
    const version = this.dataVersion();
    if (version === this.seenVersion) return;
    this.seenVersion = version;
    this.byId.clear();
    this.currentBySubject.clear();
  }

  private dataVersion(): number {
    return this.db.pragma('data_version', { simple: true }) as number;
  }
}

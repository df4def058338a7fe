import { randomBytes } from 'node:crypto';
import type { Statement } from 'better-sqlite3';
import { openSqlite, type SqliteDatabase } from '../sqlite/sqlite-connection';
import { erasureIsFinal, type DataKey, type DataKeyStore, type PendingBindings } from './data-key-store.port';

/** Keys made durable together, in one commit of the key file, before any of them is handed to a subject. */
export const KEY_POOL_SIZE = 64;
/**
 * Keys kept in memory by id (each ~200 bytes with its Buffer); older ones are read again from the key file when
 * needed. Unbounded, a rebuild kept every key it opened an event with: one per memory item.
 */
export const KEYS_KEPT = 10_000;

export interface SqliteDataKeyStoreOptions {
  /**
   * Where the subject → key bindings are written: the embedded event file, by the append that first uses a key in
   * its own transaction (takePendingBindings), so the binding commits and reaches the disk with that append and no
   * append waits for a sync of the key file. Default: the key file, one synced commit per new subject.
   */
  bindings?: SqliteDatabase;
}

interface Binding {
  subject: string;
  organization_id: number | null;
  key: DataKey;
}

/**
 * The embedded key store. The key material lives in a SQLite file of its own (`cairn-keys.sqlite` beside
 * `cairn.sqlite`), so the event file and its backups hold no key; which subject a key belongs to lives in
 * `data_key_bindings`, in the event file when there is one.
 *
 * Keys are created ahead of need, KEY_POOL_SIZE at a time in one fully synced commit of the key file, so a key is on
 * disk before any event sealed under it can be. A subject's first key is a pooled key bound to it by one
 * `data_key_bindings` row, written on the event file inside the transaction of the append it serves: the binding
 * commits with the events sealed under the key or not at all, and the append's WAL sync makes both durable, so a new
 * subject costs no sync of its own.
 * Pooled keys a process did not hand out are deleted when it closes; a crash leaves them unbound, never used.
 *
 * Deletes overwrite the freed bytes (`secure_delete`) and every destruction is checkpointed into the main file and
 * the WAL truncated, so a destroyed key is not left on disk by SQLite. The bindings stay: they name key ids and
 * subjects, never a key. Keys are cached per process; another process's destruction (a CLI erase beside a running
 * server) is seen on the next read through `PRAGMA data_version`, which changes whenever another connection commits.
 */
export class SqliteDataKeyStore implements DataKeyStore {
  private readonly db: SqliteDatabase;
  private readonly byId = new Map<string, Buffer>();
  private readonly currentBySubject = new Map<string, DataKey>();
  private readonly pool: DataKey[] = [];
  /** New subjects' bindings keyFor handed out since the last takePendingBindings (deferred mode only). */
  private pending: Binding[] = [];
  private readonly deferred: boolean;
  private seenVersion = -1;
  private readonly statements: {
    byId: Statement;
    insertKey: Statement;
    removeKey: Statement;
    boundKeys: Statement;
    bind: Statement;
    boundToOrganization: Statement;
    dataVersion: Statement;
  };

  constructor(path: string, options: SqliteDataKeyStoreOptions = {}) {
    this.db = openSqlite({ path, synchronous: 'FULL', mmapBytes: 0, cacheKiB: 2048 });
    this.db.pragma('secure_delete = ON');
    // WITHOUT ROWID: the key id is the table's only key (a rowid table kept a second b-tree for it: 164 of the 606 KB
    // of SciFact's key file). Files created before keep their table as it is.
    this.db.exec(`CREATE TABLE IF NOT EXISTS data_keys (
      key_id TEXT PRIMARY KEY,
      key BLOB NOT NULL,
      created_at TEXT NOT NULL
    ) WITHOUT ROWID`);
    const bindings = options.bindings ?? this.db;
    this.deferred = options.bindings !== undefined;
    createBindingsTable(bindings);
    // Prepared once: keyFor and keyById run on every sealed append and read.
    this.statements = {
      byId: this.db.prepare('SELECT key FROM data_keys WHERE key_id = ?'),
      insertKey: this.db.prepare('INSERT INTO data_keys (key_id, key, created_at) VALUES (?, ?, ?)'),
      removeKey: this.db.prepare('DELETE FROM data_keys WHERE key_id = ?'),
      // Prepared once: refresh() runs on every sealed append and read (db.pragma() would prepare it each time,
      // about 25 µs).
      dataVersion: this.db.prepare('PRAGMA data_version').pluck(),
      boundKeys: bindings.prepare('SELECT key_id FROM data_key_bindings WHERE subject = ?').pluck(),
      bind: bindings.prepare(
        'INSERT INTO data_key_bindings (subject, key_id, organization_id, bound_at) VALUES (?, ?, ?, ?)',
      ),
      boundToOrganization: bindings
        .prepare('SELECT key_id FROM data_key_bindings WHERE organization_id = ?')
        .pluck(),
    };
  }

  keyFor(subject: string, organizationId: number | null): DataKey {
    const cached = this.currentBySubject.get(subject) ?? this.pendingKey(subject);
    if (cached) return cached;
    // Any key of the subject not destroyed will do (an erasure destroys them all; a subject written again after
    // it, or by two processes at once, has another).
    const bound = this.statements.boundKeys.all(subject) as string[];
    for (const keyId of bound) {
      const key = this.keyById(keyId);
      if (!key) continue;
      const found = { key_id: keyId, key };
      this.remember(subject, found);
      return found;
    }
    let binding: Binding;
    if (bound.length > 0 && erasureIsFinal(subject)) {
      // Erased for good: a key bound (so audits count it as erased) but never stored or kept.
      binding = { subject, organization_id: organizationId, key: bornErasedKey() };
    } else {
      if (this.pool.length === 0) this.fillPool();
      binding = { subject, organization_id: organizationId, key: this.pool.shift()! };
      this.keep(binding.key.key_id, binding.key.key);
    }
    if (this.deferred) {
      this.pending.push(binding);
    } else {
      this.write([binding]);
      this.remember(subject, binding.key);
    }
    return binding.key;
  }

  takePendingBindings(): PendingBindings | null {
    if (this.pending.length === 0) return null;
    const taken = this.pending;
    this.pending = [];
    return {
      write: () => this.write(taken),
      // Not called when the append fails: whether it committed is then not known (its sync may fail after the
      // commit), so its keys are never handed out again and the subjects' next use reads what was bound.
      committed: () => {
        for (const binding of taken) this.remember(binding.subject, binding.key);
      },
    };
  }

  keyById(keyId: string): Buffer | null {
    const cached = this.byId.get(keyId);
    if (cached) return cached;
    const row = this.statements.byId.get(keyId) as { key: Buffer } | undefined;
    if (!row) return null;
    this.keep(keyId, row.key);
    return row.key;
  }

  /** Keys kept in memory: by id and by subject (for tests and monitoring). */
  get keysKept(): { byId: number; bySubject: number } {
    return { byId: this.byId.size, bySubject: this.currentBySubject.size };
  }

  /** Remembers a subject's current key, at most KEYS_KEPT subjects (the oldest first out). */
  private remember(subject: string, key: DataKey): void {
    if (this.currentBySubject.size >= KEYS_KEPT) {
      this.currentBySubject.delete(this.currentBySubject.keys().next().value as string);
    }
    this.currentBySubject.set(subject, key);
  }

  /**
   * Keeps a key by id, at most KEYS_KEPT (the oldest kept first out). The id is copied: an id cut from a sealed
   * value (sealedKeyIds(), open()) is a slice of it to V8, and as a map key it kept the whole sealed value, some
   * kilobytes of ciphertext per memory item, for as long as the process ran (a 100k-chunk rebuild held 81 MB of
   * such strings when it ended).
   */
  private keep(keyId: string, key: Buffer): void {
    if (this.byId.size >= KEYS_KEPT) this.byId.delete(this.byId.keys().next().value as string);
    this.byId.set(Buffer.from(keyId, 'latin1').toString('latin1'), key);
  }

  destroySubjects(names: string[], _organizationId: number | null): number {
    if (names.length === 0) return 0;
    const ids = names.flatMap((name) => this.statements.boundKeys.all(name) as string[]);
    return this.destroyKeys(ids);
  }

  destroyOrganization(organizationId: number): number {
    return this.destroyKeys(this.statements.boundToOrganization.all(organizationId) as string[]);
  }

  close(): void {
    // Pooled keys this process never bound: nothing was sealed under them.
    const unused = [...this.pool.splice(0), ...this.pending.splice(0).map((binding) => binding.key)];
    if (unused.length > 0 && this.db.open) {
      this.db.transaction(() => unused.forEach((key) => this.statements.removeKey.run(key.key_id)))();
    }
    this.db.close();
  }

  refresh(): void {
    const version = this.dataVersion();
    if (version === this.seenVersion) return;
    this.seenVersion = version;
    this.byId.clear();
    this.currentBySubject.clear();
  }

  private pendingKey(subject: string): DataKey | undefined {
    return this.pending.find((binding) => binding.subject === subject)?.key;
  }

  private write(bindings: Binding[]): void {
    const bound = new Date().toISOString();
    for (const { subject, organization_id, key } of bindings) {
      this.statements.bind.run(subject, key.key_id, organization_id, bound);
    }
  }

  /** KEY_POOL_SIZE new keys in one commit of the key file (synchronous=FULL: on disk when it returns). */
  private fillPool(): void {
    const created = new Date().toISOString();
    const keys: DataKey[] = Array.from({ length: KEY_POOL_SIZE }, () => ({
      key_id: randomBytes(8).toString('hex'),
      key: randomBytes(32),
    }));
    this.db.transaction(() => {
      for (const key of keys) this.statements.insertKey.run(key.key_id, key.key, created);
    })();
    this.pool.push(...keys);
  }

  private destroyKeys(ids: string[]): number {
    const remove = this.statements.removeKey;
    const destroyed = this.db.transaction(() => ids.reduce((n, id) => n + remove.run(id).changes, 0))();
    this.byId.clear();
    this.currentBySubject.clear();
    // The deleted rows were overwritten in their pages (secure_delete); the WAL still holds the pages as they
    // were before: copy the new pages into the file and empty the WAL.
    this.db.pragma('wal_checkpoint(TRUNCATE)');
    this.seenVersion = this.dataVersion();
    return destroyed;
  }

  private dataVersion(): number {
    return this.statements.dataVersion.get() as number;
  }
}

/** A key nobody can find again: its material is never written anywhere. */
function bornErasedKey(): DataKey {
  return { key_id: randomBytes(8).toString('hex'), key: randomBytes(32) };
}

/** Which subject (and organization) each key was handed to; key ids and subject names only, never a key. */
export function createBindingsTable(db: SqliteDatabase): void {
  // No index on organization_id (earlier builds made one; it is dropped): only an organization's erasure looks
  // bindings up by organization, and it reads the table through (~40 bytes an item saved, on every item).
  db.exec(`CREATE TABLE IF NOT EXISTS data_key_bindings (
    subject TEXT NOT NULL,
    key_id TEXT NOT NULL,
    organization_id INTEGER,
    bound_at TEXT NOT NULL,
    PRIMARY KEY (subject, key_id)
  ) WITHOUT ROWID`);
  const earlier =
    "SELECT 1 FROM sqlite_schema WHERE type = 'index' AND name = 'data_key_bindings_organization'";
  if (db.prepare(earlier).get() !== undefined) db.exec('DROP INDEX data_key_bindings_organization');
}

/**
 * Whether a copy of a data directory (a backup) can open what its events sealed: every data key its events name is
 * in its key file, or belongs to a subject (or organization) its log records as erased. A key file copied before the
 * events it serves would miss the keys of subjects first written in between, and their data would read as erased
 * after a restore: backup.ts copies the key file last, and this check refuses a copy that lacks a key all the same.
 */
import { existsSync } from 'node:fs';
import type { ErasedSubject } from '../audit/stream-auditor';
import type { EventStore } from '../infrastructure/event-store/event-store.port';
import { isSealed, sealedKeyIds } from '../infrastructure/erasure/sealed-value';
import { SEALED_FIELD } from '../infrastructure/erasure/sealing-policy';
import { subjects } from '../infrastructure/erasure/data-key-store.port';
import { openSqlite, type SqliteDatabase } from '../infrastructure/sqlite/sqlite-connection';

export interface KeyCoverage {
  /** Distinct data keys the copy's events were sealed under. */
  keys_needed: number;
  /** Of those, keys of erased subjects (destroyed on purpose). */
  keys_erased: number;
  /** Keys neither in the key file nor erased (at most 20 listed). */
  keys_missing: string[];
  keys_missing_count: number;
}

const PAGE = 2000;
const LISTED = 20;

export async function checkKeyCoverage(
  events: EventStore,
  eventDb: SqliteDatabase,
  keyFile: string,
  erased: ErasedSubject[],
): Promise<KeyCoverage> {
  const needed = new Set<string>();
  for (let after = 0; ;) {
    const page = await events.readAll({ after_position: after, max_count: PAGE });
    for (const event of page) {
      const sealed = event.data[SEALED_FIELD];
      if (isSealed(sealed)) for (const id of sealedKeyIds(sealed)) needed.add(id);
    }
    if (page.length < PAGE) break;
    after = page[page.length - 1].position;
  }
  const absent = [...needed].filter(presentIn(keyFile));
  const erasedSubjects = new Set(erased.flatMap((e) => [e.subject, ...e.linked_subjects]));
  const bindings = bindingsOf(eventDb, new Set(absent));
  const missing = absent.filter((id) => {
    const bound = bindings.get(id);
    return !(
      bound &&
      (erasedSubjects.has(bound.subject) ||
        (bound.organization_id !== null && erasedSubjects.has(subjects.organization(bound.organization_id))))
    );
  });
  return {
    keys_needed: needed.size,
    keys_erased: absent.length - missing.length,
    keys_missing: missing.slice(0, LISTED),
    keys_missing_count: missing.length,
  };
}

/** A filter keeping the key ids that are NOT in the key file (all of them when there is no key file). */
function presentIn(keyFile: string): (id: string) => boolean {
  if (!existsSync(keyFile)) return () => true;
  const db = openSqlite({ path: keyFile, readonly: true, mmapBytes: 0 });
  const present = new Set(db.prepare('SELECT key_id FROM data_keys').pluck().all() as string[]);
  db.close();
  return (id) => !present.has(id);
}

/**
 * The bindings of these key ids, read in one pass over the table: its key is (subject, key id), so a lookup by key id
 * alone would read the whole table once per id (a backup of a directory with 100,000 bindings and 1,000 erased keys
 * read it 1,000 times).
 */
function bindingsOf(
  db: SqliteDatabase,
  ids: ReadonlySet<string>,
): Map<string, { subject: string; organization_id: number | null }> {
  const found = new Map<string, { subject: string; organization_id: number | null }>();
  const table = db
    .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'data_key_bindings'")
    .get();
  if (table === undefined || ids.size === 0) return found;
  const rows = db
    .prepare('SELECT key_id, subject, organization_id FROM data_key_bindings')
    .iterate() as IterableIterator<{ key_id: string; subject: string; organization_id: number | null }>;
  for (const { key_id, subject, organization_id } of rows) {
    if (ids.has(key_id)) found.set(key_id, { subject, organization_id });
  }
  return found;
}

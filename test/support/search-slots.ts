import type { SqliteDatabase } from '../../src/infrastructure/sqlite/sqlite-connection';

/** Bytes of a document slot in the current layout (document-lengths.ts). */
export const SLOT_BYTES = 22;

/**
 * Rewrites every stored partition of document slots as an earlier layout left them: each slot cut to its first
 * `keptBytes` (6: lengths only, layout 6; 14: no expiry, layout 9).
 */
export function cutSlots(db: SqliteDatabase, keptBytes: number): void {
  const slots = db.prepare('SELECT org_key, part, data FROM search_index_lengths').all() as Array<{
    org_key: number;
    part: number;
    data: Buffer;
  }>;
  const update = db.prepare('UPDATE search_index_lengths SET data = ? WHERE org_key = ? AND part = ?');
  for (const { org_key, part, data } of slots) {
    const count = data.length / SLOT_BYTES;
    const old = Buffer.alloc(count * keptBytes);
    for (let i = 0; i < count; i++) data.copy(old, i * keptBytes, i * SLOT_BYTES, i * SLOT_BYTES + keptBytes);
    update.run(old, org_key, part);
  }
}

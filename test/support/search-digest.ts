import { createHash } from 'node:crypto';
import type { SqliteDatabase } from '../../src/infrastructure/sqlite/sqlite-connection';

/** A digest of every stored posting row, lengths row and organization statistic but the generation. */
export function storedDigest(db: SqliteDatabase): string {
  const h = createHash('sha256');
  for (const row of db
    .prepare('SELECT org_key, term, part, data FROM search_index_postings ORDER BY org_key, term, part')
    .iterate() as Iterable<{ org_key: number; term: string; part: number; data: Buffer }>) {
    h.update(`${row.org_key}|${row.term}|${row.part}|`).update(row.data);
  }
  for (const row of db
    .prepare('SELECT org_key, part, data FROM search_index_lengths ORDER BY org_key, part')
    .iterate() as Iterable<{ org_key: number; part: number; data: Buffer }>) {
    h.update(`${row.org_key}|${row.part}|`).update(row.data);
  }
  h.update(
    JSON.stringify(
      db
        .prepare(
          'SELECT organization_id, documents, title_tokens, body_tokens, next_doc_no, posted_doc_no FROM search_index_organizations ORDER BY org_key',
        )
        .all(),
    ),
  );
  return h.digest('hex');
}

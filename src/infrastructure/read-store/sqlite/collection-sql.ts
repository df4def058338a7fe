/**
 * The SQL that names a collection of read_documents: its indexes, its finds and its row statements.
 *
 * Indexes: one partial expression index per collection and indexed field, holding only that collection's rows
 * (`WHERE collection = '<name>'`). Until now there was one index per field name shared by every collection and led
 * by `collection`, so each held an entry for every document of every collection: seven fields times every memory
 * item and source, mostly for fields the collection never has (1.3 MB of BEIR SciFact's 39.3 MB file). Those shared
 * indexes are dropped when a collection is ensured. The index still leads with `collection`: without the column
 * SQLite reads every matching row to check the term, and a count is no longer answered from the index alone.
 *
 * Every statement names its collection as a literal, never `collection = ?`. SQLite uses a partial index only when
 * the query's WHERE implies the index's; with a bound collection it decides that from the value bound when the
 * statement is (re-)prepared. A statement prepared before the index existed is re-prepared on that value's plan
 * and keeps it for other values — on SQLite 3.53.2 (better-sqlite3 12.11.1) `DELETE … WHERE collection = ?` run
 * for 'a' then 'b' deleted none of b's rows (read-store.sqlite.spec.ts). With literals, each collection's
 * statements are planned for it alone. Collection names are checked against `[A-Za-z0-9_-]{1,100}` before they
 * reach SQL, which leaves no quote to escape.
 */
import { createHash } from 'node:crypto';
import { assertCollectionName, assertFieldName, effectiveSort, type ParsedFind } from '../read-store-query';
import { fieldValueSql, filterSql, orderBySql, type SqlParam } from './sqlite-filter';

/** Names of the shared indexes of layout 1 (`read_documents_by_<field>_<hash>`). */
export const SHARED_INDEX_PREFIX = 'read_documents_by_';

/** The SQL term selecting `collection`'s rows, as a literal the partial indexes' WHERE clause matches. */
export function collectionSql(collection: string): string {
  assertCollectionName(collection);
  return `collection = '${collection}'`;
}

/**
 * The index of `field` in `collection`; `sparse`: of the documents whose value is not null only (a find by `field =
 * value` implies that, so SQLite still uses it). The name hashes the collection, the expression and that condition:
 * SQL identifiers are case-insensitive while collection names and JSON keys are not, and a changed expression gets
 * a new index.
 */
export function collectionIndex(
  collection: string,
  field: string,
  sparse = false,
): { name: string; sql: string } {
  assertFieldName(field);
  const value = fieldValueSql(field);
  const where = sparse ? `${collectionSql(collection)} AND ${value} IS NOT NULL` : collectionSql(collection);
  const hash = createHash('sha256').update(`${where}\n${value}`).digest('hex').slice(0, 10);
  const name = `read_documents_in_${collection.replace(/-/g, '_')}_by_${field}_${hash}`;
  return {
    name,
    sql: `CREATE INDEX IF NOT EXISTS "${name}" ON read_documents (collection, ${value}, id) WHERE ${where}`,
  };
}

/** The SQL of a find() in `collection`: its page (then LIMIT and OFFSET parameters), its count, their parameters. */
export function findSql(
  collection: string,
  parsed: ParsedFind,
): { pageSql: string; countSql: string; params: SqlParam[] } {
  const where = filterSql(parsed.filter);
  const base = `FROM read_documents WHERE ${collectionSql(collection)} AND ${where.sql}`;
  return {
    pageSql: `SELECT json(doc) AS doc, packed ${base} ORDER BY ${orderBySql(effectiveSort(parsed))} LIMIT ? OFFSET ?`,
    countSql: `SELECT COUNT(*) AS n ${base}`,
    params: where.params,
  };
}

/** The statements of a collection's rows by id, and of all of them (reset), the collection a literal. */
export function collectionStatementsSql(collection: string) {
  const where = collectionSql(collection);
  const many = `id IN (SELECT value FROM json_each(?))`;
  return {
    get: `SELECT json(doc) AS doc, packed FROM read_documents WHERE ${where} AND id = ?`,
    getMany: `SELECT id, json(doc) AS doc, packed FROM read_documents WHERE ${where} AND ${many}`,
    getManyUnpacked: `SELECT id, json(doc) AS doc, NULL AS packed FROM read_documents WHERE ${where} AND ${many}`,
    // One top-level field (the first parameter, a JSON path): the row's packed fields, and the field as JSON text.
    getManyField: `SELECT id, packed, doc -> ? AS value FROM read_documents WHERE ${where} AND ${many}`,
    delete: `DELETE FROM read_documents WHERE ${where} AND id = ?`,
    deleteCollection: `DELETE FROM read_documents WHERE ${where}`,
  };
}

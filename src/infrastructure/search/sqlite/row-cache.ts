/**
 * Looked-up document rows (id, title, parsed fields) kept in memory between queries, by document number, for one
 * generation of one organization at a time (search-schema.ts: every write that changes any of an organization's
 * documents, fields included, changes its generation in the same transaction). A query reads the generation
 * in its read transaction before it asks, so it never sees a row older than its snapshot.
 *
 * Bounded in bytes (rowBytes: an estimate on the high side of what a row holds on the heap): when full it starts
 * over (the rows a workload keeps asking for come back in one lookup each).
 */
import type { FilterValue } from '../search-index.port';

export interface CachedRow {
  id: string;
  title: string;
  fields: Readonly<Record<string, FilterValue>>;
}

/**
 * Default budget. A collapsed search reads every chunk of the items it returns (a limit-100 search of ~8-chunk
 * items, some 800 rows): the scale bench's 200 queries at 1M chunks, each asked with limit 10 and 100, read
 * ~176,000 rows, which a bound of 100,000 rows made start over before any query came back (limit-100 p50 in
 * process 11.1 ms, against 7.2 with every row kept). Measured on that corpus a row holds ~275 bytes of heap,
 * estimated ~340 (rowBytes): 64 MiB keeps ~200,000 such rows in ~55 MB.
 */
export const ROW_CACHE_BYTES = 64 * 1024 * 1024;

/** Object headers, the map's slot and the fields object's own slots, per row (before its strings). */
const ROW_OVERHEAD = 120;
const BYTES_PER_FIELD = 8;

/**
 * What a cached row holds on the heap, on the high side: its id and title as two-byte strings, a slot per field
 * and the characters of its string values (values such as "internal" are shared between rows, but counted).
 */
export function rowBytes(row: CachedRow): number {
  let bytes = ROW_OVERHEAD + 2 * (row.id.length + row.title.length);
  for (const key in row.fields) {
    const value = row.fields[key];
    bytes += BYTES_PER_FIELD + (typeof value === 'string' ? value.length : 0);
  }
  return bytes;
}

/** One generation of one organization's kept rows (RowCache.rowsOf). */
export class CachedRows {
  readonly rows = new Map<number, CachedRow>();
  /** The bytes (rowBytes) of its rows. */
  bytes = 0;
  /** Its organization's generation moved (or the cache was cleared) since: what is added is not kept. */
  retired = false;

  constructor(readonly generation: string) {}

  get(docNo: number): CachedRow | undefined {
    return this.rows.get(docNo);
  }
}

export class RowCache {
  private readonly organizations = new Map<number, CachedRows>();
  private bytes = 0;

  constructor(private readonly maxBytes = ROW_CACHE_BYTES) {}

  /** The bytes (rowBytes) of the rows kept. */
  get size(): number {
    return this.bytes;
  }

  /** The organization's rows for `generation` (emptied first when its generation moved). */
  rowsOf(orgKey: number, generation: string): CachedRows {
    let entry = this.organizations.get(orgKey);
    if (entry === undefined || entry.generation !== generation) {
      if (entry !== undefined) this.retire(entry);
      entry = new CachedRows(generation);
      this.organizations.set(orgKey, entry);
    }
    return entry;
  }

  /**
   * Adds a row to `rows` (from rowsOf), starting every organization over when it would pass the budget. Rows of a
   * generation that moved since are not kept.
   */
  add(rows: CachedRows, docNo: number, row: CachedRow): void {
    if (rows.retired) return;
    const previous = rows.get(docNo);
    if (previous !== undefined) this.count(rows, -rowBytes(previous));
    const bytes = rowBytes(row);
    if (this.bytes + bytes > this.maxBytes) this.clearRows();
    rows.rows.set(docNo, row);
    this.count(rows, bytes);
  }

  clear(): void {
    for (const entry of this.organizations.values()) this.retire(entry);
    this.organizations.clear();
    this.bytes = 0;
  }

  private retire(entry: CachedRows): void {
    entry.retired = true;
    this.bytes -= entry.bytes;
  }

  private count(rows: CachedRows, bytes: number): void {
    rows.bytes += bytes;
    this.bytes += bytes;
  }

  private clearRows(): void {
    for (const entry of this.organizations.values()) {
      entry.rows.clear();
      entry.bytes = 0;
    }
    this.bytes = 0;
  }
}

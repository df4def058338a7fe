/**
 * Looked-up document rows (id, title, parsed fields) kept in memory between queries, by document number, for one
 * generation of one organization at a time (search-schema.ts: every write that changes any of an organization's
 * documents, fields included, changes its generation in the same transaction). A query reads the generation
 * in its read transaction before it asks, so it never sees a row older than its snapshot.
 *
 * Bounded in rows: when full it starts over (the rows a workload keeps asking for come back in one lookup each).
 */
import type { FilterValue } from '../search-index.port';

export interface CachedRow {
  id: string;
  title: string;
  fields: Readonly<Record<string, FilterValue>>;
}

/** Default bound: the rows of the best matches of a few thousand distinct queries (~300 bytes each). */
export const ROW_CACHE_ROWS = 100_000;

export class RowCache {
  private readonly organizations = new Map<number, { generation: string; rows: Map<number, CachedRow> }>();
  private size = 0;

  constructor(private readonly maxRows = ROW_CACHE_ROWS) {}

  /** The organization's rows for `generation` (emptied first when its generation moved). */
  rowsOf(orgKey: number, generation: string): Map<number, CachedRow> {
    let entry = this.organizations.get(orgKey);
    if (entry === undefined || entry.generation !== generation) {
      this.size -= entry?.rows.size ?? 0;
      entry = { generation, rows: new Map() };
      this.organizations.set(orgKey, entry);
    }
    return entry.rows;
  }

  /** Adds a row to `rows` (from rowsOf), starting every organization over when the bound is reached. */
  add(rows: Map<number, CachedRow>, docNo: number, row: CachedRow): void {
    if (this.size >= this.maxRows) this.clearRows();
    if (!rows.has(docNo)) this.size += 1;
    rows.set(docNo, row);
  }

  clear(): void {
    this.organizations.clear();
    this.size = 0;
  }

  private clearRows(): void {
    for (const entry of this.organizations.values()) entry.rows.clear();
    this.size = 0;
  }
}

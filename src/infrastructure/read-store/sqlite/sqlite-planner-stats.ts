/**
 * Keeps SQLite's planner statistics (sqlite_stat1) for read_documents fresh. Without them the planner cannot
 * tell a selective index (organization_id) from an unselective one (status) and may count thousands of rows
 * instead of hundreds. ANALYZE of this one table is cheap (~8 ms per 10k documents, ~60 ms per 100k), so it
 * runs when a new index appears and whenever this process has written about half the table since the last run.
 */
import { isSqliteBusy, type SqliteDatabase } from '../../sqlite/sqlite-connection';

const MIN_WRITES = 1_000;

export class ReadDocumentsPlannerStats {
  private writes = 0;
  private threshold = MIN_WRITES;

  constructor(private readonly db: SqliteDatabase) {}

  /** Call after a committed transaction, outside it. */
  noteWrites(count: number): void {
    this.writes += count;
    if (this.writes < this.threshold) return;
    try {
      this.refresh();
    } catch {
      // The commit has already succeeded; statistics are only an optimization and are retried later.
      this.writes = 0;
    }
  }

  refresh(): void {
    try {
      this.db.exec('ANALYZE read_documents');
      const row = this.db.prepare('SELECT COUNT(*) AS n FROM read_documents').get() as
        { n: number } | undefined;
      this.threshold = Math.max(MIN_WRITES, Math.ceil((row?.n ?? 0) / 2));
      this.writes = 0;
    } catch (error) {
      // Statistics are an optimization: another process holding the write lock is no failure.
      if (!isSqliteBusy(error)) throw error;
    }
  }
}

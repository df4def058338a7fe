import { join } from 'node:path';
import { openSqlite, PAGE_SIZE } from '../../../src/infrastructure/sqlite/sqlite-connection';
import { makeTempDir } from '../../support/temp-dir';

describe('SQLite page size', () => {
  const temp = makeTempDir();
  afterAll(() => temp.cleanup());

  const pageSizeOf = (path: string): number => {
    const db = openSqlite({ path });
    try {
      return Number(db.pragma('page_size', { simple: true }));
    } finally {
      db.close();
    }
  };

  it('a new file gets PAGE_SIZE', () => {
    const path = join(temp.dir, 'new.sqlite');
    const db = openSqlite({ path });
    db.exec('CREATE TABLE t (x)');
    db.close();
    expect(PAGE_SIZE).not.toBe(4096);
    expect(pageSizeOf(path)).toBe(PAGE_SIZE);
  });

  it('an existing file keeps its own page size, with its data', () => {
    const path = join(temp.dir, 'older.sqlite');
    const db = openSqlite({ path, pageSize: 4096 });
    db.exec("CREATE TABLE t (x); INSERT INTO t VALUES ('kept')");
    db.close();
    expect(pageSizeOf(path)).toBe(4096);
    const reopened = openSqlite({ path });
    reopened.exec("INSERT INTO t VALUES ('more')");
    expect(reopened.prepare('SELECT x FROM t ORDER BY rowid').pluck().all()).toEqual(['kept', 'more']);
    reopened.close();
    expect(pageSizeOf(path)).toBe(4096);
  });
});

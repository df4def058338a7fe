import { LimitedStatements } from '../../../src/infrastructure/sqlite/limited-statements';
import { openSqlite, type SqliteDatabase } from '../../../src/infrastructure/sqlite/sqlite-connection';

describe('LimitedStatements (the row limit written into the SQL, one statement per limit)', () => {
  let db: SqliteDatabase;
  let statements: LimitedStatements;

  beforeEach(() => {
    db = openSqlite({ path: ':memory:' });
    db.exec('CREATE TABLE t (n INTEGER NOT NULL)');
    const insert = db.prepare('INSERT INTO t (n) VALUES (?)');
    for (let n = 1; n <= 10; n++) insert.run(n);
    statements = new LimitedStatements(db, 'SELECT n FROM t WHERE n > ? ORDER BY n', true);
  });

  afterEach(() => db.close());

  it('returns at most the limit, or every row without one', () => {
    expect(statements.for(3).all(4)).toEqual([[5], [6], [7]]);
    expect(statements.for(null).all(7)).toEqual([[8], [9], [10]]);
  });

  it('prepares each limit once and reuses it', () => {
    expect(statements.for(2)).toBe(statements.for(2));
    expect(statements.for(2)).not.toBe(statements.for(3));
    expect(statements.for(null)).toBe(statements.for(null));
  });

  it('refuses a limit that is not a positive integer (nothing reaches the SQL)', () => {
    for (const bad of [0, -1, 2.5, Number.NaN, 2 ** 60]) {
      expect(() => statements.for(bad)).toThrow(RangeError);
    }
  });
});

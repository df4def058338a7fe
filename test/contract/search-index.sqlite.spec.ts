import { join } from 'node:path';
import { SqliteSearchIndex } from '../../src/infrastructure/search/sqlite/sqlite-search-index';
import { openSqlite } from '../../src/infrastructure/sqlite/sqlite-connection';
import { makeTempDir } from '../support/temp-dir';
import { describeSearchIndexContract } from './search-index.contract';

describeSearchIndexContract('SQLite FTS5', async () => {
  const temp = makeTempDir('cairn-search-');
  const db = openSqlite({ path: join(temp.dir, 'cairn.sqlite') });
  const index = new SqliteSearchIndex(db);
  return {
    index,
    cleanup: async () => {
      await index.close();
      db.close();
      temp.cleanup();
    },
  };
});

/**
 * Two `memory:ingest` runs over the same new document keys at once (found by a black-box test agent: one run
 * stopped with `memory_item_exists`, 3 runs of 3): both succeed, each key's item created by one and revised by the
 * other, never two items for one key. Runs the real CLI (needs `npm run build`).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cairn } from '../support/cli';
import { makeTempDir } from '../support/temp-dir';

const RECORDS = 300;

function records(variant: string): string {
  return Array.from({ length: RECORDS }, (_, i) =>
    JSON.stringify({
      id: `rec-${i}`,
      title: `Record ${i}`,
      text: `Record ${i} says zq${variant}${i} at the desk.`,
    }),
  ).join('\n');
}

describe('two memory:ingest runs over the same new document keys at once', () => {
  const temp = makeTempDir('cairn-ingest-race-');
  afterAll(() => temp.cleanup());

  it('both finish; every key has one item, created by one run and revised by the other', async () => {
    const data = join(temp.dir, 'data');
    const org = (await cairn(data, 'org:create', '--name', 'Race')).json.organization_id as number;
    // A document key is file:<parent directory name>/<file name>#<record id>: the same for both files.
    const [a, b] = ['first', 'second'].map((variant) => {
      const dir = join(temp.dir, variant, 'src');
      mkdirSync(dir, { recursive: true });
      const file = join(dir, 'records.jsonl');
      writeFileSync(file, records(variant));
      return file;
    });
    const runs = await Promise.all(
      [a, b].map((file) => cairn(data, 'memory:ingest', String(org), file, '--audience', 'internal')),
    );
    expect(runs.map((run) => [run.code, run.stderr.match(/memory_item_exists.*/)?.[0] ?? null])).toEqual([
      [0, null],
      [0, null],
    ]);
    const items = (run: (typeof runs)[number]) =>
      new Map<string, { memory_item_id: number; status: string }>(
        (run.json.items as Array<{ document_key: string; memory_item_id: number; status: string }>).map(
          (item) => [item.document_key, item],
        ),
      );
    const [first, second] = runs.map(items);
    expect(first.size).toBe(RECORDS);
    expect(second.size).toBe(RECORDS);
    for (const [key, item] of first) {
      const other = second.get(key);
      expect(other?.memory_item_id).toBe(item.memory_item_id);
      expect([item.status, other?.status].sort()).toEqual(['created', 'revised']);
    }
  }, 120_000);
});

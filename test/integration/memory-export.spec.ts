import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cairn } from '../support/cli';
import { makeTempDir } from '../support/temp-dir';

const ITEM_KEYS = [
  'record',
  'memory_item_id',
  'memory_source_id',
  'organization_id',
  'type',
  'title',
  'source_type',
  'source_label',
  'source_uri',
  'audience',
  'authority_level',
  'visibility',
  'owner_client_key',
  'lifecycle_status',
  'current_revision',
  'revisions',
  'created_at',
  'updated_at',
];
const REVISION_KEYS = [
  'record',
  'memory_item_id',
  'revision',
  'recorded_at',
  'actor',
  'event_id',
  'event_hash',
  'proposal_id',
  'title',
  'summary',
  'content',
  'content_sha256',
  'source_date',
  'effective_at',
  'expires_at',
  'chunks',
];

/** Sentences enough for a revision written in parts (over the 1 MiB append limit). */
function largeText(chars: number): string {
  const lines: string[] = [];
  for (let n = 0, length = 0; length < chars; n += 1) {
    const line = `Paragraph ${n} explains route ${n % 97} of the harbour ferry and its winter timetable.\n\n`;
    lines.push(line);
    length += line.length;
  }
  return lines.join('');
}

describe('cairn export ORG (JSON Lines of memory items and revisions)', () => {
  jest.setTimeout(180_000);
  const temp = makeTempDir();
  const data = join(temp.dir, 'data');
  afterAll(() => temp.cleanup());
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- records are checked field by field below
  const parse = (text: string): any[] =>
    text
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line));

  it('every item of the organization, then each of its revisions in order, with a fixed field order', async () => {
    expect((await cairn(data, 'demo')).code).toBe(0);
    writeFileSync(join(temp.dir, 'hours.md'), 'Saturday opening hours are now 10:00 to 14:00.');
    expect((await cairn(data, 'memory:revise', '1', '1', join(temp.dir, 'hours.md'))).code).toBe(0);
    expect((await cairn(data, 'memory:archive', '1', '3')).code).toBe(0);
    const large = largeText(1_300_000);
    writeFileSync(join(temp.dir, 'ferry.md'), large);
    const ingested = await cairn(data, 'memory:ingest', '1', join(temp.dir, 'ferry.md'), '--title', 'Ferry');
    expect(ingested.code).toBe(0);
    const ferryId: number = ingested.json.items[0].memory_item_id;
    const other = (await cairn(data, 'org:create', '--name', 'Elsewhere')).json.organization_id;
    writeFileSync(join(temp.dir, 'secret.md'), 'Elsewhere keeps this to itself.');
    expect((await cairn(data, 'memory:ingest', String(other), join(temp.dir, 'secret.md'))).code).toBe(0);

    const res = await cairn(data, 'export', '1');
    expect(res.code).toBe(0);
    const records = parse(res.stdout);
    expect(res.stdout.endsWith('\n')).toBe(true);
    expect(records[0]).toEqual({
      record: 'export',
      format: 'cairn-memory-export/1',
      organization_id: 1,
      exported_at: expect.any(String),
      head_position: expect.any(Number),
    });
    const items = records.filter((r) => r.record === 'item');
    const revisions = records.filter((r) => r.record === 'revision');
    expect(records.at(-1)).toEqual({ record: 'end', items: 5, revisions: 6 });
    expect(items.map((item) => item.memory_item_id)).toEqual([1, 2, 3, 4, ferryId]);
    for (const item of items) expect(Object.keys(item)).toEqual(ITEM_KEYS);
    for (const revision of revisions) expect(Object.keys(revision)).toEqual(REVISION_KEYS);
    expect(records.some((r) => JSON.stringify(r).includes('Elsewhere keeps'))).toBe(false);

    // Each item is followed by its own revisions, oldest first.
    const order = records.slice(1, -1).map((r) => `${r.record}:${r.memory_item_id}:${r.revision ?? ''}`);
    expect(order.slice(0, 4)).toEqual(['item:1:', 'revision:1:1', 'revision:1:2', 'item:2:']);
    const hours = revisions.filter((r) => r.memory_item_id === 1);
    expect(hours.map((r) => r.revision)).toEqual([1, 2]);
    expect(hours[0].content).toContain('Saturday from 9:00 to 13:00');
    expect(hours[1]).toMatchObject({
      content: expect.stringContaining('10:00 to 14:00'),
      actor: 'operator:cli',
    });
    expect(hours[1].event_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(items[0]).toMatchObject({ current_revision: 2, revisions: 2, lifecycle_status: 'active' });
    expect(items[2]).toMatchObject({ lifecycle_status: 'archived', revisions: 1 });

    // A revision recorded in parts is exported whole: its content hashes to its content_sha256.
    const [ferry] = revisions.filter((r) => r.memory_item_id === ferryId);
    expect(ferry.content.length).toBeGreaterThan(1_200_000);
    expect(createHash('sha256').update(`${ferry.title}\u0000${ferry.content}`, 'utf8').digest('hex')).toBe(
      ferry.content_sha256,
    );
    expect(ferry.chunks.length).toBeGreaterThan(100);
    expect(ferry.chunks.map((c: { ordinal: number }) => c.ordinal)).toEqual(
      ferry.chunks.map((_: unknown, i: number) => i),
    );

    // --output: the same lines in the file, the result object on stdout.
    const file = join(temp.dir, 'export.jsonl');
    const written = await cairn(data, 'export', '1', '--output', file);
    expect(written.json).toMatchObject({ ok: true, output: file, items: 5, revisions: 6 });
    const fromFile = parse(readFileSync(file, 'utf8'));
    expect(fromFile.slice(1)).toEqual(records.slice(1));

    expect(await cairn(data, 'export', '999')).toMatchObject({
      code: 1,
      json: { error: { code: 'not_found' } },
    });
  });
});

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cairn } from '../support/cli';
import { ok, outputHas, survivors } from '../support/erasure-scan';
import { makeTempDir } from '../support/temp-dir';

/**
 * An erased memory item is final (docs/audit.md "An erased item is final"). Found by black-box attacks: re-ingesting
 * an erased document answered `unchanged` (its content digest, kept in clear, confirmed a guessed document) and
 * stored nothing; a changed file, `memory:revise` or `memory:archive` wrote to the erased item again, storing the new
 * text under a fresh key. Through the CLI on the embedded store, with a three-section document in two revisions.
 */
describe('an erased memory item is never written again (CLI, embedded store)', () => {
  jest.setTimeout(120_000);
  const temp = makeTempDir('cairn-final-');
  const data = join(temp.dir, 'data');
  const docs = join(temp.dir, 'docs');
  afterAll(() => temp.cleanup());

  const OLD = 'Revision one says the spare key hangs behind the boiler in plant room B.';
  const NEW = 'Revision two says the spare key moved to the grey lockbox by the loading bay.';
  const KEEP = 'Both revisions say visitors sign in at the north reception desk.';
  const LATER = 'A later handbook section about the quarterly fire drill on the roof terrace.';
  let org = 0;
  let org2 = 0;
  let item = 0;

  const doc = (...sections: string[]): string =>
    [
      '# Site handbook',
      ...sections.map((s, i) => `## Section ${i + 1}\n\n${s}\n\nFiller paragraph ${i}.`),
    ].join('\n\n');
  const handbook = join(docs, 'handbook.md');

  beforeAll(async () => {
    mkdirSync(docs, { recursive: true });
    org = (await ok(cairn(data, 'org:create', '--name', 'Final Org'))).json.organization_id;
    org2 = (await ok(cairn(data, 'org:create', '--name', 'Other Org'))).json.organization_id;
    writeFileSync(handbook, doc(KEEP, OLD, 'Closing words.'));
    item = (await ok(cairn(data, 'memory:ingest', String(org), handbook))).json.items[0].memory_item_id;
    writeFileSync(handbook, doc(KEEP, NEW, 'Closing words.'));
    const revised = await ok(cairn(data, 'memory:ingest', String(org), handbook));
    expect(revised.json.items[0]).toMatchObject({ memory_item_id: item, status: 'revised', revision: 2 });
    await ok(cairn(data, 'memory:erase', String(org), String(item), '--reason', 'test'));
    expect(survivors(data, [OLD, NEW, KEEP])).toEqual([]);
  });

  it('revise and archive are refused (409 memory_item_erased), the same content too; another organization: not found', async () => {
    writeFileSync(join(docs, 'later.md'), doc(KEEP, LATER));
    const revised = await cairn(data, 'memory:revise', String(org), String(item), join(docs, 'later.md'));
    expect(revised).toMatchObject({ code: 1, json: { ok: false, error: { code: 'memory_item_erased' } } });
    // The content it had: refused as well, never "unchanged" (that would confirm the erased text).
    const same = await cairn(data, 'memory:revise', String(org), String(item), handbook);
    expect(same).toMatchObject({ code: 1, json: { error: { code: 'memory_item_erased' } } });
    const archived = await cairn(data, 'memory:archive', String(org), String(item));
    expect(archived).toMatchObject({ code: 1, json: { error: { code: 'memory_item_erased' } } });
    const foreign = await cairn(data, 'memory:archive', String(org2), String(item));
    expect(foreign).toMatchObject({ code: 1, json: { error: { code: 'not_found' } } });
    expect(survivors(data, [LATER, OLD, NEW, KEEP])).toEqual([]);
  });

  it('re-ingesting the erased document makes a new item; erasing that one leaves nothing either', async () => {
    const again = await ok(cairn(data, 'memory:ingest', String(org), handbook));
    expect(again.json.items[0]).toMatchObject({ status: 'created', revision: 1 });
    const second = again.json.items[0].memory_item_id;
    expect(second).not.toBe(item);
    expect(outputHas(await ok(cairn(data, 'export', String(org))), [NEW, KEEP])).toBe(true);
    // Unchanged now: the new item is the document's.
    const unchanged = await ok(cairn(data, 'memory:ingest', String(org), handbook));
    expect(unchanged.json.items[0]).toMatchObject({ memory_item_id: second, status: 'unchanged' });
    await ok(cairn(data, 'memory:erase', String(org), String(second)));
    expect(survivors(data, [OLD, NEW, KEEP])).toEqual([]);
  });

  it('an item created from a large document (its first revision written in parts) is erased', async () => {
    const BIG = 'A canary sentence that opens the large document about the east stairwell.';
    const words = Array.from({ length: 60_000 }, (_, i) => `word${(i * 7919) % 100_003}`).join(' ');
    const big = join(docs, 'big.md');
    writeFileSync(big, `# Large\n\n${BIG}\n\n${words}\n`);
    const created = await ok(cairn(data, 'memory:ingest', String(org), big));
    const id = created.json.items[0].memory_item_id;
    expect(created.json.items[0]).toMatchObject({ status: 'created' });
    // (Not scanned before the erasure: the value scan decodes every run of this text as base64, for minutes.)
    expect(outputHas(await ok(cairn(data, 'export', String(org))), [BIG])).toBe(true);
    const erased = await ok(cairn(data, 'memory:erase', String(org), String(id), '--reason', 'test'));
    expect(erased.json).toMatchObject({ erased: true, changed: true });
    expect(survivors(data, [BIG])).toEqual([]);
  });

  it('the items an org:erase erased are final too; an item written after it is live', async () => {
    const ORG_TEXT = 'The erased organisation kept its pumpkin store behind the red gate.';
    const org3 = (await ok(cairn(data, 'org:create', '--name', 'Erased Org'))).json.organization_id;
    const file = join(docs, 'org-doc.md');
    writeFileSync(file, doc(ORG_TEXT));
    const before = (await ok(cairn(data, 'memory:ingest', String(org3), file))).json.items[0].memory_item_id;
    await ok(cairn(data, 'org:erase', String(org3), '--reason', 'test'));
    // Neither the true content nor a guess is compared with the erased item: both refused alike.
    for (const content of [doc(ORG_TEXT), doc('A wrong guess about the store.')]) {
      writeFileSync(join(docs, 'guess.md'), content);
      const revised = await cairn(
        data,
        'memory:revise',
        String(org3),
        String(before),
        join(docs, 'guess.md'),
      );
      expect(revised).toMatchObject({ code: 1, json: { error: { code: 'memory_item_erased' } } });
    }
    const archived = await cairn(data, 'memory:archive', String(org3), String(before));
    expect(archived).toMatchObject({ code: 1, json: { error: { code: 'memory_item_erased' } } });
    const again = await ok(cairn(data, 'memory:ingest', String(org3), file));
    expect(again.json.items[0]).toMatchObject({ status: 'created' });
    const after = again.json.items[0].memory_item_id;
    expect(after).not.toBe(before);
    // Written after the organization's erasure: a live item, revised as any other.
    writeFileSync(file, doc(ORG_TEXT, 'A section added later.'));
    const revised = await ok(cairn(data, 'memory:ingest', String(org3), file));
    expect(revised.json.items[0]).toMatchObject({ memory_item_id: after, status: 'revised', revision: 2 });
    expect(outputHas(await ok(cairn(data, 'export', String(org3))), ['A section added later.'])).toBe(true);
  });

  it('a changed file under the erased document key becomes a new item; rebuild and audit hold', async () => {
    writeFileSync(handbook, doc(KEEP, LATER));
    const ingested = await ok(cairn(data, 'memory:ingest', String(org), handbook));
    expect(ingested.json.items[0]).toMatchObject({ status: 'created', revision: 1 });
    const third = ingested.json.items[0].memory_item_id;
    expect(third).not.toBe(item);
    await ok(cairn(data, 'projections:rebuild'));
    const exported = await ok(cairn(data, 'export', String(org)));
    expect(outputHas(exported, [LATER, KEEP])).toBe(true);
    expect(outputHas(exported, [OLD, NEW])).toBe(false);
    expect((await ok(cairn(data, 'audit:verify'))).json.verified).toBe(true);
    await ok(cairn(data, 'memory:erase', String(org), String(third)));
    expect(survivors(data, [OLD, NEW, KEEP, LATER])).toEqual([]);
  });
});

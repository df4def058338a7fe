/**
 * The collapse part of the SearchIndex contract (see search-index.contract.ts): SearchQuery.collapse by
 * memory_item_id, an item's chunks as one hit with its matching chunks as members, filters applied chunk by chunk.
 */
import type { FilterValue, SearchQuery } from '../../src/infrastructure/search/search-index.port';
import type { RankingContext } from './search-index.contract-ranking';

export function describeCollapseContract({
  index: current,
  org,
  doc,
  ns,
}: RankingContext & { ns: () => string }): void {
  describe('collapse (one hit per memory_item_id, with its members)', () => {
    const collapse = (max_members = 100) => ({ field: 'memory_item_id', max_members });
    // An item's chunks: item 1 has three (one without the word), item 2 two, item 3 one; a document with no
    // item id is its own hit.
    const chunk = (key: string, item: number | null, body: string, extra: Record<string, FilterValue> = {}) =>
      doc(key, 'Glacier notes', body, { memory_item_id: item, chunk: key, ...extra });
    beforeEach(async () => {
      await current().upsert([
        chunk('i1a', 1, 'moraine moraine moraine and a cirque'),
        chunk('i1b', 1, 'one moraine in a long paragraph about ice sheets and valleys and tarns'),
        chunk('i1c', 1, 'nothing relevant here at all'),
        chunk('i2a', 2, 'moraine moraine beside the lake'),
        chunk('i2b', 2, 'a moraine'),
        chunk('i3a', 3, 'moraine ridge'),
        chunk('n1', null, 'moraine field without an item'),
      ]);
    });
    const short = (key: string) => key.slice(ns().length + 1);
    const collapsed = async (query: Partial<SearchQuery>) =>
      (
        await current().search({ organization_id: org(), text: 'moraine', collapse: collapse(), ...query })
      ).map((hit) => ({
        id: short(hit.id),
        members: (hit.members ?? []).map((member) => short(member.id)),
        score: hit.score,
        memberScores: (hit.members ?? []).map((member) => member.score),
      }));

    it('returns each item once, as its best chunk, with every matching chunk best first; limit counts items', async () => {
      const plain = await current().search({ organization_id: org(), text: 'moraine', limit: 100 });
      const scoreOf = new Map(plain.map((hit) => [short(hit.id), hit.score]));
      const hits = await collapsed({ limit: 10 });
      const byItem = new Map([
        [1, ['i1a', 'i1b']],
        [2, ['i2a', 'i2b']],
        [3, ['i3a']],
      ]);
      const expected = [...byItem.values(), ['n1']]
        .map((members) => members.sort((a, b) => (scoreOf.get(b) ?? 0) - (scoreOf.get(a) ?? 0)))
        .sort((a, b) => (scoreOf.get(b[0]) ?? 0) - (scoreOf.get(a[0]) ?? 0));
      expect(hits.map((hit) => [hit.id, ...hit.members])).toEqual(expected.map((m) => [m[0], ...m]));
      // Scores are the plain search's, member by member; the hit's own document is its first member.
      for (const hit of hits) {
        expect(hit.score).toBe(scoreOf.get(hit.id));
        expect(hit.memberScores).toEqual(hit.members.map((member) => scoreOf.get(member)));
      }
      expect((await collapsed({ limit: 2 })).map((hit) => hit.id)).toEqual(hits.slice(0, 2).map((h) => h.id));
      const capped = await current().search({
        organization_id: org(),
        text: 'moraine',
        collapse: collapse(1),
      });
      expect(capped.map((hit) => (hit.members ?? []).length)).toEqual(hits.map(() => 1));
      expect(capped[0].members?.[0]).toMatchObject({ id: capped[0].id, fields: capped[0].fields });
    });

    it('applies the filters to each chunk: an item is its best chunk that passes, its members those that pass', async () => {
      await current().upsert([
        chunk('i1a', 1, 'moraine moraine moraine and a cirque', { hidden: true }),
        chunk('i2a', 2, 'moraine moraine beside the lake', { hidden: true }),
        chunk('i2b', 2, 'a moraine', { hidden: true }),
      ]);
      const hits = await collapsed({ filters: { hidden: [false, null] } });
      expect(hits.map((hit) => hit.id).sort()).toEqual(['i1b', 'i3a', 'n1']);
      expect(hits.find((hit) => hit.id === 'i1b')?.members).toEqual(['i1b']);
    });

    it('fills the limit past many items whose chunks all fail the filters', async () => {
      // 60 items of 3 chunks each that rank above everything else and are all hidden.
      const hidden = Array.from({ length: 60 }, (_, item) =>
        ['a', 'b', 'c'].map((part) =>
          chunk(`h${item}${part}`, 100 + item, 'moraine moraine moraine moraine', { hidden: true }),
        ),
      ).flat();
      await current().upsert(hidden);
      const hits = await collapsed({ limit: 3, filters: { hidden: [false, null] } });
      const unfiltered = await collapsed({ limit: 100 });
      expect(unfiltered.slice(0, 60).every((hit) => hit.id.startsWith('h'))).toBe(true);
      expect(hits).toEqual(unfiltered.filter((hit) => !hit.id.startsWith('h')).slice(0, 3));
      expect(hits).toHaveLength(3);
      expect(hits.every((hit) => !hit.id.startsWith('h'))).toBe(true);
    });

    it('follows a chunk whose item id changes without its text (a newer version of the same document)', async () => {
      await current().upsert([{ ...chunk('i2b', 3, 'a moraine'), version: 2 }]);
      const hits = await collapsed({});
      expect(hits.find((hit) => hit.members.includes('i2b'))?.members.sort()).toEqual(['i2b', 'i3a']);
      expect(hits.find((hit) => hit.id === 'i2a')?.members).toEqual(['i2a']);
    });

    it('restricted to collapse values, answers as a filter on the field would', async () => {
      const restricted = (values: number[], query: Partial<SearchQuery> = {}) =>
        collapsed({ ...query, collapse: { field: 'memory_item_id', max_members: 100, values } });
      const filtered = (values: number[], query: Partial<SearchQuery> = {}) =>
        collapsed({ ...query, filters: { ...query.filters, memory_item_id: values } });
      expect(await restricted([3, 2, 99])).toEqual(await filtered([3, 2, 99]));
      expect((await restricted([3, 2, 99])).map((hit) => hit.id).sort()).toEqual(['i2a', 'i3a']);
      expect((await restricted([1, 2, 2, 3])).map((hit) => hit.members)).toEqual(
        (await collapsed({})).filter((hit) => hit.id !== 'n1').map((hit) => hit.members),
      );
      expect(await restricted([1, 2, 3], { limit: 2 })).toEqual(await filtered([1, 2, 3], { limit: 2 }));
      await current().upsert([chunk('i1a', 1, 'moraine moraine moraine and a cirque', { hidden: true })]);
      const visible = { filters: { hidden: [false, null] } };
      expect(await restricted([1], visible)).toEqual(await filtered([1], visible));
      expect((await restricted([1], visible)).map((hit) => hit.members)).toEqual([['i1b']]);
      expect(await restricted([])).toEqual([]);
    });

    it('leaves out excluded collapse values, as a filter leaving them out would', async () => {
      const excluding = (excluded: number[], query: Partial<SearchQuery> = {}) =>
        collapsed({
          ...query,
          collapse: { field: 'memory_item_id', max_members: 100, excluded_values: new Set(excluded) },
        });
      const filtered = (kept: Array<number | null>, query: Partial<SearchQuery> = {}) =>
        collapsed({ ...query, filters: { ...query.filters, memory_item_id: kept } });
      expect(await excluding([1, 3])).toEqual(await filtered([2, null]));
      expect((await excluding([1, 3])).map((hit) => hit.id).sort()).toEqual(['i2a', 'n1']);
      expect(await excluding([2], { limit: 2 })).toEqual(await filtered([1, 3, null], { limit: 2 }));
      expect(await excluding([])).toEqual(await collapsed({}));
      // Many items ranking above the rest, all excluded: the limit is filled past them.
      const many = Array.from({ length: 60 }, (_, item) =>
        ['a', 'b'].map((part) => chunk(`h${item}${part}`, 100 + item, 'moraine moraine moraine moraine')),
      ).flat();
      await current().upsert(many);
      const manyIds = Array.from({ length: 60 }, (_, item) => 100 + item);
      expect(await excluding(manyIds, { limit: 3 })).toEqual(await filtered([1, 2, 3, null], { limit: 3 }));
      // With collapse values too: the values not excluded.
      const restricted = await collapsed({
        collapse: {
          field: 'memory_item_id',
          max_members: 100,
          values: [1, 2, 3, 100],
          excluded_values: new Set([2, 100]),
        },
      });
      expect(restricted).toEqual(await filtered([1, 3]));
    });

    it('refuses invalid excluded collapse values', async () => {
      const search = (excluded: unknown) =>
        current().search({
          organization_id: org(),
          text: 'moraine',
          collapse: {
            field: 'memory_item_id',
            max_members: 10,
            excluded_values: excluded as ReadonlySet<number>,
          },
        });
      await expect(search([1])).rejects.toThrow(TypeError);
      await expect(search(new Set([-1]))).rejects.toThrow(TypeError);
      await expect(search(new Set([1.5]))).rejects.toThrow(TypeError);
      await expect(search(new Set(['1']))).rejects.toThrow(TypeError);
      await expect(search(new Set(Array.from({ length: 65_537 }, (_, n) => n)))).rejects.toThrow(TypeError);
      await expect(search(new Set(Array.from({ length: 65_536 }, (_, n) => n)))).resolves.toBeDefined();
    });

    it('refuses invalid collapse values', async () => {
      const search = (values: unknown) =>
        current().search({
          organization_id: org(),
          text: 'moraine',
          collapse: { field: 'memory_item_id', max_members: 10, values: values as number[] },
        });
      await expect(search([-1])).rejects.toThrow(TypeError);
      await expect(search([1.5])).rejects.toThrow(TypeError);
      await expect(search(['1'])).rejects.toThrow(TypeError);
      await expect(search(2)).rejects.toThrow(TypeError);
      await expect(search(Array.from({ length: 1001 }, (_, n) => n))).rejects.toThrow(TypeError);
      await expect(search(Array.from({ length: 1000 }, (_, n) => n))).resolves.toBeDefined();
    });

    it('refuses an invalid collapse', async () => {
      const search = (value: unknown) =>
        current().search({
          organization_id: org(),
          text: 'moraine',
          collapse: value as SearchQuery['collapse'],
        });
      await expect(search({ field: 'memory_item_id', max_members: 0 })).rejects.toThrow(RangeError);
      await expect(search({ field: 'memory_item_id', max_members: 101 })).rejects.toThrow(RangeError);
      await expect(search({ field: 'memory_item_id', max_members: 1.5 })).rejects.toThrow(RangeError);
      await expect(search({ field: 'a.b', max_members: 1 })).rejects.toThrow(TypeError);
      await expect(search('memory_item_id')).rejects.toThrow(TypeError);
    });
  });
}

import { readMembers } from '../../../src/infrastructure/search/sqlite/member-cache';
import type { CachedRow } from '../../../src/infrastructure/search/sqlite/row-cache';

const row = (docNo: number): CachedRow => ({ id: `c${docNo}`, title: `t${docNo}`, fields: {} });

describe("readMembers (a collapse value's documents, from the caches or one read)", () => {
  it('takes a value from the caches only when its list and every row of it are kept; reads the rest once', () => {
    const rows = new Map<number, CachedRow>([1, 2, 3, 5].map((docNo) => [docNo, row(docNo)]));
    // Value 10: fully cached. Value 20: its list is kept but row 4 is not (the row cache started over). Value 30:
    // no list. Value 10 asked twice.
    const lists = new Map<number, number[]>([
      [10, [1, 2]],
      [20, [3, 4, 5]],
    ]);
    const reads: number[][] = [];
    const kept: number[] = [];
    const members = readMembers(
      [10, 20, 10, 30],
      { rows: { get: (docNo) => rows.get(docNo) }, lists },
      (missing) => {
        reads.push(missing);
        return [
          { docNo: 3, value: 20, row: row(3) },
          { docNo: 4, value: 20, row: row(4) },
          { docNo: 5, value: 20, row: row(5) },
          { docNo: 7, value: 30, row: row(7) },
        ];
      },
      (fetched) => kept.push(...fetched.rows.map((member) => member.docNo)),
    );
    expect(reads).toEqual([[20, 30]]);
    expect(kept).toEqual([3, 4, 5, 7]);
    // Each document once: none of value 20's cached rows is listed beside the ones read.
    expect(members.map((member) => member.docNo)).toEqual([1, 2, 3, 4, 5, 7]);
    expect(members.map((member) => member.row.id)).toEqual(['c1', 'c2', 'c3', 'c4', 'c5', 'c7']);
  });

  it('reads nothing when every value is cached', () => {
    const rows = new Map<number, CachedRow>([[1, row(1)]]);
    const read = jest.fn(() => []);
    const members = readMembers(
      [10],
      { rows: { get: (docNo) => rows.get(docNo) }, lists: new Map([[10, [1]]]) },
      read,
      () => undefined,
    );
    expect(read).not.toHaveBeenCalled();
    expect(members).toEqual([{ docNo: 1, row: row(1) }]);
  });
});

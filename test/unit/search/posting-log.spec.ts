import fc from 'fast-check';
import {
  PostingLog,
  TermNumbers,
  type TakenRow,
} from '../../../src/infrastructure/search/sqlite/posting-log';
import { groupOf, partitionOf, PARTITION_SIZE } from '../../../src/infrastructure/search/sqlite/postings';

/**
 * The deferred postings' log (posting-log.ts): take(upTo) hands out exactly the postings of the documents below
 * `upTo`, one row per (term, partition), in the postings table's key order (group, term, partition), each row in
 * document order with its term frequencies capped as stored; what is left stays for the next take.
 */
interface Posting {
  term: string;
  doc: number;
  title: number;
  body: number;
}
interface Row {
  group: number;
  term: string;
  part: number;
  docs: number[];
  titles: number[];
  bodies: number[];
}

const cap = (tf: number) => Math.min(tf, 0xffff);
const byKey = (a: Row, b: Row) =>
  a.group - b.group || (a.term < b.term ? -1 : a.term > b.term ? 1 : 0) || a.part - b.part;

/** The rows a take of `postings` (documents in order) should visit: grouped by key, sorted by it. */
function expectedRows(postings: Posting[]): Row[] {
  const rows = new Map<string, Row>();
  for (const p of postings) {
    const part = partitionOf(p.doc);
    const key = `${p.term}/${part}`;
    let row = rows.get(key);
    if (row === undefined)
      rows.set(key, (row = { group: groupOf(part), term: p.term, part, docs: [], titles: [], bodies: [] }));
    row.docs.push(p.doc);
    row.titles.push(cap(p.title));
    row.bodies.push(cap(p.body));
  }
  return [...rows.values()].sort(byKey);
}

function copy(row: TakenRow): Row {
  return {
    group: row.group,
    term: row.term,
    part: row.part,
    docs: [...row.docs.subarray(0, row.count)],
    titles: [...row.titleTf.subarray(0, row.count)],
    bodies: [...row.bodyTf.subarray(0, row.count)],
  };
}

const TERMS = ['basalt', 'cairn', 'col', 'delta', 'fjord', 'moraine', 'scree', 'tarn', 'é', 'zz'];

/** Documents in increasing order (gaps up to two groups wide, so takes cross partitions and groups). */
const documents = fc
  .array(
    fc.record({
      gap: fc.oneof(fc.integer({ min: 1, max: 3 }), fc.integer({ min: 1, max: 2 * 16 * PARTITION_SIZE })),
      terms: fc.uniqueArray(fc.constantFrom(...TERMS), { minLength: 1, maxLength: 5 }),
      title: fc.oneof(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 200_000 })),
      body: fc.oneof(fc.integer({ min: 1, max: 9 }), fc.integer({ min: 1, max: 200_000 })),
    }),
    { minLength: 1, maxLength: 60 },
  )
  .map((specs) => {
    const postings: Posting[] = [];
    let doc = -1;
    for (const spec of specs) {
      doc += spec.gap;
      for (const term of spec.terms) postings.push({ term, doc, title: spec.title, body: spec.body });
    }
    return postings;
  });

describe('PostingLog', () => {
  it('takes the postings below each cut in key order, in document order within a row, and keeps the rest', () => {
    fc.assert(
      fc.property(
        documents,
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 4 }),
        (postings, cuts) => {
          const numbers = new TermNumbers();
          // Appended through a batch's log into the pending one, as write-batch.ts does.
          const log = new PostingLog(numbers);
          const half = Math.floor(postings.length / 2);
          for (const part of [postings.slice(0, half), postings.slice(half)]) {
            const batch = new PostingLog(numbers);
            for (const p of part) batch.add(numbers.numberOf(p.term), p.doc, p.title, p.body);
            log.append(batch);
          }
          const lastDoc = postings[postings.length - 1].doc;
          const bounds = [...cuts.map((c) => Math.floor(c * (lastDoc + 1))), lastDoc + 1].sort(
            (a, b) => a - b,
          );
          let from = 0;
          for (const upTo of bounds) {
            const visited: Row[] = [];
            log.take(upTo, (row) => visited.push(copy(row)));
            expect(visited).toEqual(expectedRows(postings.filter((p) => p.doc >= from && p.doc < upTo)));
            expect(log.length).toBe(postings.filter((p) => p.doc >= upTo).length);
            from = Math.max(from, upTo);
          }
          expect(log.length).toBe(0);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('numbers a term once, whether asked by its string or by its analyzer entry', () => {
    const numbers = new TermNumbers();
    const entry = { term: 'cairn', stamp: 0, titleCount: 0, bodyCount: 0, numberedBy: 0, number: 0 };
    expect(numbers.numberOf('moraine')).toBe(0);
    expect(numbers.numberOfEntry(entry)).toBe(1);
    expect(numbers.numberOf('cairn')).toBe(1);
    // Another numbering does not trust the number the entry remembers from the first.
    const other = new TermNumbers();
    expect(other.numberOfEntry(entry)).toBe(0);
    expect(numbers.numberOfEntry(entry)).toBe(1);
    expect(numbers.size).toBe(2);
  });
});

import fc from 'fast-check';
import {
  type LengthChanges,
  lengthChangesByPartition,
  mergeLengths,
  readLengths,
  REMOVED,
} from '../../../src/infrastructure/search/sqlite/document-lengths';
import { PARTITION_SIZE } from '../../../src/infrastructure/search/sqlite/postings';

describe('document slots (lengths, collapse values and expiries)', () => {
  it('read back what was merged, batch after batch, partition by partition; removed and unwritten slots empty', () => {
    const slot = fc.tuple(
      fc.nat(0x1ffff),
      fc.nat(0x1ffffffff),
      fc.oneof(fc.constant(-1), fc.nat(Number.MAX_SAFE_INTEGER - 1)),
      fc.oneof(fc.constant(NaN), fc.double({ noNaN: true })),
    );
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.tuple(fc.nat(3 * PARTITION_SIZE - 1), fc.option(slot)), { maxLength: 40 }), {
          maxLength: 5,
        }),
        (batches) => {
          const stored = new Map<number, Buffer>();
          const expected = new Map<number, [number, number, number, number]>();
          for (const batch of batches) {
            const changes: LengthChanges = new Map();
            for (const [docNo, value] of batch) changes.set(docNo, value ?? REMOVED);
            for (const [part, partChanges] of lengthChangesByPartition(changes)) {
              stored.set(part, mergeLengths(part, stored.get(part), partChanges));
            }
            for (const [docNo, [title, body, key, expiry]] of changes) {
              // Lengths past their field's range are stored at its largest value.
              expected.set(docNo, [Math.min(title, 0xffff), Math.min(body, 0xffffffff), key, expiry]);
            }
          }
          const range = 3 * PARTITION_SIZE;
          const read = readLengths(
            range,
            [...stored].map(([part, data]) => ({ part, data })),
          );
          const wrong: number[] = [];
          for (let doc = 0; doc < range; doc++) {
            const written = expected.get(doc);
            const [title, body, key, expiry] = written ?? [0, 0, -1, NaN];
            const same =
              read.title[doc] === title &&
              read.body[doc] === body &&
              read.keys[doc] === key &&
              // A slot never written is all zero (no posting names its document): expiry 0 or NaN.
              (Object.is(read.expiry[doc], expiry) || (written === undefined && read.expiry[doc] === 0));
            if (!same) wrong.push(doc);
          }
          expect(wrong).toEqual([]);
        },
      ),
      { numRuns: 100 },
    );
  });
});

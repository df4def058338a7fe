import { IdGenerator, MAX_ID_BLOCK } from '../../../src/common/id-generator';
import type { ReadStore } from '../../../src/infrastructure/read-store/read-store.port';

/** The store's atomic reservation, in memory (one shared "store" for several generators = processes). */
function sequenceStore(): { store: ReadStore; reservations: number[] } {
  const next = new Map<string, number>();
  const reservations: number[] = [];
  const reserveIds = async (sequence: string, count: number): Promise<number> => {
    await new Promise((resolve) => setImmediate(resolve));
    const first = next.get(sequence) ?? 1;
    next.set(sequence, first + count);
    reservations.push(count);
    return first;
  };
  return { store: { reserveIds } as unknown as ReadStore, reservations };
}

describe('IdGenerator (hi/lo blocks)', () => {
  it('a fresh process reserves one id, then blocks that double up to the maximum', async () => {
    const { store, reservations } = sequenceStore();
    const ids = new IdGenerator(store);
    expect(await ids.next('organization')).toBe(1);
    expect(reservations).toEqual([1]);
    const many: number[] = [];
    for (let i = 0; i < 300; i++) many.push(await ids.next('organization'));
    expect(many).toEqual(Array.from({ length: 300 }, (_, i) => i + 2));
    expect(reservations.slice(0, 8)).toEqual([1, 2, 4, 8, 16, 32, 64, 64]);
    expect(Math.max(...reservations)).toBe(MAX_ID_BLOCK);
  });

  it('ids stay unique across processes sharing the store, and within a process under concurrency', async () => {
    const { store } = sequenceStore();
    const a = new IdGenerator(store);
    const b = new IdGenerator(store);
    const taken = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        i % 3 === 0
          ? a.many('memory_chunk', 3)
          : (i % 2 === 0 ? a : b).next('memory_chunk').then((id) => [id]),
      ),
    );
    const all = taken.flat();
    expect(new Set(all).size).toBe(all.length);
    expect(all.every((id) => Number.isSafeInteger(id) && id > 0)).toBe(true);
  });

  it('many() returns consecutive ids in order, even larger than a block', async () => {
    const { store } = sequenceStore();
    const ids = new IdGenerator(store);
    await ids.next('memory_chunk');
    const block = await ids.many('memory_chunk', 100);
    expect(block).toEqual(Array.from({ length: 100 }, (_, i) => block[0] + i));
    expect(await ids.many('memory_chunk', 0)).toEqual([]);
    await expect(ids.many('memory_chunk', -1)).rejects.toThrow(RangeError);
    await expect(ids.many('memory_chunk', 1.5)).rejects.toThrow(RangeError);
  });
});

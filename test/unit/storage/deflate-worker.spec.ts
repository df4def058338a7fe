import type { Worker } from 'node:worker_threads';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { DeflateWorker } from '../../../src/infrastructure/read-store/sqlite/deflate-worker';

/** A memory item's chunks as the read store packs them: eight sections, some text outside ASCII. */
function chunksJson(item: number): string {
  return JSON.stringify({
    chunks: Array.from({ length: 8 }, (_, s) => ({
      memory_chunk_id: item * 8 + s,
      text: `§${s + 1} of item ${item}: rotate the key on node-${s} (déjà vu ✓ 🔑), then wait ${item + s} s. `.repeat(
        9,
      ),
    })),
  });
}

const expected = (text: string, level: number): Buffer =>
  deflateRawSync(Buffer.from(text, 'utf8'), { level });

describe('DeflateWorker', () => {
  const workers: DeflateWorker[] = [];
  const make = (level: number, fromUnits?: number, largestOnThread?: number): DeflateWorker => {
    const worker = new DeflateWorker(level, fromUnits, largestOnThread);
    workers.push(worker);
    return worker;
  };
  afterEach(async () => {
    await Promise.all(workers.splice(0).map((worker) => worker.close()));
  });

  it('compresses a small batch inline and a large one on its thread, each text as deflateRawSync does', async () => {
    const worker = make(4, 20_000);
    const small = [chunksJson(1)];
    expect(small[0].length).toBeLessThan(20_000);
    const inline = worker.deflateMany(small);
    expect(Array.isArray(inline)).toBe(true);
    expect((inline as Buffer[])[0].equals(expected(small[0], 4))).toBe(true);

    const large = Array.from({ length: 12 }, (_, n) => chunksJson(n));
    const threaded = worker.deflateMany(large);
    expect(threaded).toBeInstanceOf(Promise);
    const out = await threaded;
    expect(out).toHaveLength(large.length);
    for (const [n, bytes] of out.entries()) {
      expect(Buffer.isBuffer(bytes)).toBe(true);
      expect(bytes.equals(expected(large[n], 4))).toBe(true);
      expect(inflateRawSync(bytes).toString('utf8')).toBe(large[n]);
    }
  });

  it('compresses a text too large for the thread inline, in its place among the ones the thread compresses', async () => {
    const worker = make(4, 1, 20_000);
    const large = chunksJson(3).repeat(5);
    expect(large.length).toBeGreaterThan(20_000);
    expect(chunksJson(4).length).toBeLessThan(20_000);
    const texts = [chunksJson(1), large, chunksJson(2), chunksJson(4), large];
    await worker.deflateMany([chunksJson(9)]);
    const thread = (worker as unknown as { worker: Worker }).worker;
    const posted = jest.spyOn(thread, 'postMessage');
    const out = await worker.deflateMany(texts);
    expect(out.map((bytes) => inflateRawSync(bytes).toString('utf8'))).toEqual(texts);
    expect(out[1].equals(expected(large, 4))).toBe(true);
    // Only the small texts went to the thread, in two messages around the large one.
    const sent = posted.mock.calls.map(([message]) => (message as { texts: string[] }).texts);
    expect(sent).toEqual([[texts[0]], [texts[2], texts[3]]]);
  });

  it('keeps batches apart when several are in flight, and an empty text or batch', async () => {
    const worker = make(1, 1);
    const batches = Array.from({ length: 6 }, (_, b) => [chunksJson(b), '', chunksJson(b + 100)]);
    const results = await Promise.all(batches.map((batch) => worker.deflateMany(batch)));
    for (const [b, out] of results.entries()) {
      expect(out.map((bytes) => inflateRawSync(bytes).toString('utf8'))).toEqual(batches[b]);
      expect(out[2].equals(expected(batches[b][2], 1))).toBe(true);
    }
    expect(await worker.deflateMany([])).toEqual([]);
  });

  it('compresses what its thread held inline when it is closed, and everything after', async () => {
    const worker = make(4, 1);
    const large = Array.from({ length: 40 }, (_, n) => chunksJson(n));
    const held = worker.deflateMany(large);
    await worker.close();
    const out = await held;
    expect(out.map((bytes) => inflateRawSync(bytes).toString('utf8'))).toEqual(large);
    const after = worker.deflateMany(large.slice(0, 3));
    expect(Array.isArray(after)).toBe(true);
    expect((after as Buffer[])[2].equals(expected(large[2], 4))).toBe(true);
  });

  it('falls back to inline, with a warning, when its thread dies', async () => {
    const warn = jest.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    try {
      const worker = make(4, 1);
      const large = Array.from({ length: 20 }, (_, n) => chunksJson(n));
      await worker.deflateMany(large);
      // The thread is killed from outside (what an out-of-memory kill or a crash of the thread looks like).
      const thread = (worker as unknown as { worker: { terminate(): Promise<number> } }).worker;
      const held = worker.deflateMany(large);
      await thread.terminate();
      const out = await held;
      expect(out.map((bytes) => inflateRawSync(bytes).toString('utf8'))).toEqual(large);
      const after = worker.deflateMany(large);
      expect(Array.isArray(after)).toBe(true);
      expect(warn).toHaveBeenCalledWith(expect.stringMatching(/deflate thread failed/), {
        code: 'CAIRN_DEFLATE_THREAD',
      });
    } finally {
      warn.mockRestore();
    }
  });
});

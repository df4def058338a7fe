import { EmbeddingMemo } from '../../../src/projections/embedding-memo';

describe('EmbeddingMemo (a retried projection batch re-embeds only what it had not)', () => {
  const encode = (vector: readonly number[]) => vector.join(',');

  it('keeps the calls that succeeded before a failure, so the retry embeds only the rest', async () => {
    const memo = new EmbeddingMemo();
    const texts = Array.from({ length: 150 }, (_, n) => `chunk ${n}`);
    const calls: string[][] = [];
    let fail = true;
    const embed = async (batch: string[]) => {
      calls.push(batch);
      if (calls.length === 2 && fail) throw new Error('timed out');
      return batch.map((text) => [Number(text.split(' ')[1])]);
    };
    await expect(memo.vectors(texts, embed, encode)).rejects.toThrow('timed out');
    fail = false;
    calls.length = 0;
    const vectors = await memo.vectors(texts, embed, encode);
    expect(vectors).toEqual(texts.map((_, n) => String(n)));
    // The first 64 were remembered: the retry asked for the other 86 only.
    expect(calls.flat()).toEqual(texts.slice(64));
  });

  it('forgets the oldest vectors past its bound', async () => {
    const memo = new EmbeddingMemo(10);
    const embedded: string[] = [];
    const embed = async (batch: string[]) => {
      embedded.push(...batch);
      return batch.map(() => [12345]);
    };
    await memo.vectors(['a', 'b', 'c'], embed, encode);
    await memo.vectors(['c', 'a'], embed, encode);
    expect(embedded).toEqual(['a', 'b', 'c', 'a']);
  });
});

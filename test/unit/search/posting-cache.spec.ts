/** The posting cache's count of what it keeps (posting-cache.ts), as entries are set again once they grew. */
import { PostingCache } from '../../../src/infrastructure/search/sqlite/posting-cache';
import type { TermBlocks } from '../../../src/infrastructure/search/sqlite/term-blocks';
import { stored } from './ranking-corpus';

const KB = 1024;

/** A term's blocks that count `bytes` (the cache adds its own per-entry overhead, under 1 KB here). */
function blocksOf(bytes: number): TermBlocks {
  const blocks = stored([[1, 0, 1]]);
  blocks.bytes = bytes;
  return blocks;
}

describe('posting cache', () => {
  it('counts an entry set again at its new size, and drops it once it no longer fits a share of the budget', () => {
    const cache = new PostingCache(100 * KB);
    const kept = (term: string) => cache.get(1, 'g', term) !== undefined;
    expect(cache.get(1, 'g', 'a')).toBeUndefined(); // records the generation
    for (const term of ['a', 'b', 'c', 'd']) cache.set(1, 'g', term, blocksOf(20 * KB));
    // a grows by 3 KB: counted as 23 KB, not 43 (its earlier count replaced).
    cache.set(1, 'g', 'a', blocksOf(23 * KB));
    // 4 entries and e: ~104 KB of a 100 KB budget, so only the least recently used (b) leaves.
    cache.set(1, 'g', 'e', blocksOf(20 * KB));
    expect(['a', 'b', 'c', 'd', 'e'].map(kept)).toEqual([true, false, true, true, true]);
    // Over a quarter of the budget: no longer kept, and no longer counted.
    cache.set(1, 'g', 'c', blocksOf(30 * KB));
    expect(kept('c')).toBe(false);
    for (const term of ['f', 'g']) cache.set(1, 'g', term, blocksOf(20 * KB));
    // a (23), d, e, f, g: ~103 KB, so a, the least recently used, leaves; had c's 20 KB still been counted, d too.
    expect(['a', 'd', 'e', 'f', 'g'].map(kept)).toEqual([false, true, true, true, true]);
  });
});

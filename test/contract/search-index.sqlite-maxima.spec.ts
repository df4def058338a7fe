/**
 * What the embedded index computes for a cached term asked for again, under the query's weighting, never changing
 * what a search answers: its blocks' exact maxima (block-maxima.ts), and the scores of a mid-sized term.
 */
import { join } from 'node:path';
import * as blockMaxima from '../../src/infrastructure/search/sqlite/block-maxima';
import * as denseSums from '../../src/infrastructure/search/sqlite/dense-sums';
import { SCORED_POSTINGS, WARM_SCORED_POSTINGS } from '../../src/infrastructure/search/sqlite/max-score';
import { SqliteSearchIndex } from '../../src/infrastructure/search/sqlite/sqlite-search-index';
import { openSqlite } from '../../src/infrastructure/sqlite/sqlite-connection';
import { makeTempDir } from '../support/temp-dir';

/**
 * Asks with title boosts 1, 1, 1, 2, 2, each answer equal to a fresh index's for its boost; returns how many times
 * `spy` was called during each ask.
 */
async function callsPerAsk(
  spy: jest.SpyInstance,
  ask: (boost: 1 | 2) => Promise<unknown>,
  expected: Record<1 | 2, unknown>,
): Promise<number[]> {
  const calls: number[] = [];
  for (const boost of [1, 1, 1, 2, 2] as const) {
    spy.mockClear();
    expect(await ask(boost)).toEqual(expected[boost]);
    calls.push(spy.mock.calls.length);
  }
  return calls;
}

describe('SQLite search index: a cached term ranked again by its blocks’ exact maxima', () => {
  const temp = makeTempDir('cairn-search-maxima-');
  const db = openSqlite({ path: join(temp.dir, 'cairn.sqlite') });
  const index = new SqliteSearchIndex(db);
  afterAll(async () => {
    await index.close();
    db.close();
    temp.cleanup();
  });

  it('computes them when the term is asked for again, again for another title weight, and ranks the same', async () => {
    // Over DENSE_POSTINGS postings in all, so ranking goes document at a time, where the bounds are used.
    const words = ['moraine', 'glacier', 'cirque', 'erratic', 'esker', 'drumlin'];
    const documents = Array.from({ length: 9_000 }, (_, n) => ({
      id: `d${n}`,
      organization_id: 'org-1',
      title: n % 7 === 0 ? 'glacier notes' : `note ${n}`,
      body: Array.from({ length: 4 + (n % 23) }, (_, k) => words[(n * 7 + k * k) % words.length]).join(' '),
      fields: {},
      version: 1,
    }));
    await index.upsert(documents);
    const ask = (target: SqliteSearchIndex, boost: number) =>
      target
        .search({ organization_id: 'org-1', text: 'glacier moraine esker', limit: 10, title_boost: boost })
        .then((hits) => hits.map((hit) => [hit.id, hit.score]));
    const cold = async (boost: number) => {
      const fresh = new SqliteSearchIndex(db);
      try {
        return await ask(fresh, boost);
      } finally {
        await fresh.close();
      }
    };
    const computed = jest.spyOn(blockMaxima, 'computeBlockMaxima');
    try {
      const expected = { 1: await cold(1), 2: await cold(2) };
      expect(computed).not.toHaveBeenCalled();
      // First ask: read, header bounds. Second: maxima for its three terms. Then kept; another weight: again.
      expect(await callsPerAsk(computed, (boost) => ask(index, boost), expected)).toEqual([0, 3, 0, 3, 0]);
    } finally {
      computed.mockRestore();
    }
  });

  it('keeps the scores of a term of up to WARM_SCORED_POSTINGS postings once it is asked for again', async () => {
    // 'tarn' in every one of 17,000 documents: over SCORED_POSTINGS, so not scored when first read.
    const documents = Array.from({ length: 17_000 }, (_, n) => ({
      id: `t${n}`,
      organization_id: 'org-2',
      title: `tarn ${n % 5 === 0 ? 'tarn' : 'pool'}`,
      body: `tarn water ${'deep '.repeat(n % 9)}`,
      fields: {},
      version: 1,
    }));
    await index.upsert(documents);
    expect(documents.length).toBeGreaterThan(SCORED_POSTINGS);
    expect(documents.length).toBeLessThanOrEqual(WARM_SCORED_POSTINGS);
    const ask = (target: SqliteSearchIndex, boost: number) =>
      target
        .search({ organization_id: 'org-2', text: 'tarn', limit: 10, title_boost: boost })
        .then((hits) => hits.map((hit) => [hit.id, hit.score]));
    const fresh = new SqliteSearchIndex(db);
    const expected = { 1: await ask(fresh, 1), 2: await ask(fresh, 2) };
    await fresh.close();
    const scored = jest.spyOn(denseSums, 'scorePostings');
    try {
      // First ask: read, not scored. Second: scored (and kept). Then kept; another title weight: scored again.
      expect(await callsPerAsk(scored, (boost) => ask(index, boost), expected)).toEqual([0, 1, 0, 1, 0]);
    } finally {
      scored.mockRestore();
    }
  });
});

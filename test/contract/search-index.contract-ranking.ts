/**
 * The ranking part of the SearchIndex contract (see search-index.contract.ts): BM25 with k1 = 0.9 and b = 0.4
 * over title and body as one field (title weighted by title_boost, default 1), English analysis alike in
 * documents and queries. Engine-neutral: the assertions hold whatever the other organizations in a shared index
 * hold (collection statistics may be per organization or per index).
 */
import type {
  FilterValue,
  SearchDocument,
  SearchIndex,
  SearchQuery,
} from '../../src/infrastructure/search/search-index.port';

export interface RankingContext {
  index: () => SearchIndex;
  org: (suffix?: string) => string;
  id: (suffix: string) => string;
  doc: (
    key: string,
    title: string,
    body: string,
    fields?: Record<string, FilterValue>,
    version?: number,
    organization?: string,
  ) => SearchDocument;
  ids: (query: Omit<SearchQuery, 'organization_id'> & { organization_id?: string }) => Promise<string[]>;
}

export function describeRankingContract({ index: current, org, id, doc, ids }: RankingContext): void {
  describe('ranking', () => {
    it('ranks more query-term hits and title hits above a single body mention', async () => {
      await current().upsert([
        doc('once', 'Office hours', 'Our office is open daily and a refund desk sits near the entrance.'),
        doc('many', 'Refund rules', 'A refund is issued to the card. Every refund takes five days.'),
        doc('both', 'Shipping times', 'Express shipping and a refund for late parcels are available.'),
      ]);
      expect((await ids({ text: 'refund' }))[0]).toBe(id('many'));
      expect((await ids({ text: 'refund shipping' }))[0]).toBe(id('both'));
      expect((await ids({ text: 'refund shipping' })).at(-1)).toBe(id('once'));
    });

    it('scores title and body as one field by default: the same words score the same wherever they are', async () => {
      await current().upsert([
        doc('t', 'Warranty', 'Details for hardware bought from the online store.'),
        doc('b', 'Details', 'Warranty for hardware bought from the online store.'),
      ]);
      const hits = await current().search({ organization_id: org(), text: 'warranty' });
      expect(hits.map((hit) => hit.id).sort()).toEqual([id('b'), id('t')]);
      expect(hits[0].score).toBeCloseTo(hits[1].score, 6);
    });

    it('weighs title matches by title_boost', async () => {
      await current().upsert([
        doc('title', 'Warranty', 'Details for hardware bought from the online store last year.'),
        doc('body', 'Hardware', 'The warranty covers hardware bought from the online store.'),
      ]);
      // Flat by default: one mention each, and the shorter document ranks first.
      expect(await ids({ text: 'warranty' })).toEqual([id('body'), id('title')]);
      expect(await ids({ text: 'warranty', title_boost: 2 })).toEqual([id('title'), id('body')]);
      expect(await ids({ text: 'warranty', title_boost: 5 })).toEqual([id('title'), id('body')]);
      expect(await ids({ text: 'warranty', title_boost: 0.01 })).toEqual([id('body'), id('title')]);
    });

    it('normalizes length moderately (BM25 b = 0.4): two mentions in a 4× longer text still rank first', async () => {
      // Lengths 2 and 8 tokens (stop words do not count). With b = 0.75 (SQLite FTS5, Lucene's default) the
      // short document would win for any average length below 12; with b = 0.4 the long one wins above 2.7.
      await current().upsert([
        doc('short', 'Notes', 'Sprocket.'),
        doc('long', 'Report', 'Sprocket assembly failed; sprocket replaced overnight by vendor.'),
      ]);
      expect(await ids({ text: 'sprocket' })).toEqual([id('long'), id('short')]);
    });

    it('counts a word repeated in the query as often as it is said', async () => {
      await current().upsert([
        doc('z', 'Zorblat', 'Zorblat calibration notes for the lab.'),
        doc('q', 'Quindle', 'Quindle calibration notes for the lab.'),
      ]);
      expect(await ids({ text: 'zorblat quindle quindle' })).toEqual([id('q'), id('z')]);
      expect(await ids({ text: 'zorblat zorblat quindle' })).toEqual([id('z'), id('q')]);
    });

    it('analyzes English words alike in documents and queries: possessives, case, diacritics, numbers', async () => {
      await current().upsert([
        doc('p', 'Clinic log', "The patient's café visits lasted 3.5 days, e.g. twice; NAÏVE Zürich cohort."),
        doc('o', 'Other', 'Unrelated text about 35 days and five visitors.'),
      ]);
      for (const text of [
        'patients',
        'PATIENT',
        'cafe',
        'Café',
        'naive',
        'zurich',
        '3.5',
        'e.g.',
        'lasting',
      ]) {
        expect({ text, hits: await ids({ text }) }).toEqual({ text, hits: [id('p')] });
      }
      expect(await ids({ text: '3' })).toEqual([]);
      expect((await ids({ text: 'visit days' })).sort()).toEqual([id('o'), id('p')].sort());
    });

    it('stems English words', async () => {
      await current().upsert([
        doc('run', 'Daily', 'We run the backup every night.'),
        doc('runs', 'Jobs', 'The importer runs hourly.'),
        doc('other', 'Other', 'Nothing relevant here.'),
      ]);
      expect((await ids({ text: 'running' })).sort()).toEqual([id('run'), id('runs')].sort());
    });
  });
}

/**
 * The one contract every SearchIndex adapter passes. Each test works in its own organizations and document ids,
 * so the suite also runs against a shared, long-lived engine; only the reset test clears the whole index.
 */
import { randomUUID } from 'node:crypto';
import type {
  FilterValue,
  SearchDocument,
  SearchFilter,
  SearchIndex,
  SearchQuery,
} from '../../src/infrastructure/search/search-index.port';

import { describeCollapseContract } from './search-index.contract-collapse';
import { describeRankingContract } from './search-index.contract-ranking';

type MakeIndex = () => Promise<{ index: SearchIndex; cleanup: () => Promise<void> }>;

/** Query syntax of FTS5, Lucene and SQL, separated by "|" (itself hostile too); plus a few singled out. */
const HOSTILE_TEXTS = [
  ...'a AND b|NEAR(|NEAR(alpha bravo, 2)|"|""|*|alpha*|title:x|body : alpha'.split('|'),
  ...'{title body}: alpha|-x|NOT alpha|alpha OR|^alpha|(((|\\|AND OR NOT'.split('|'),
  ...`'; DROP TABLE documents; --|"alpha" OR "*"|alpha~2|/a.*/|[* TO *]`.split('|'),
  '|',
  '\u0000',
  '🙂🔥',
  `${'zz '.repeat(2_000)}alpha`,
];

export function describeSearchIndexContract(name: string, makeIndex: MakeIndex): void {
  describe(`SearchIndex contract: ${name}`, () => {
    let index: SearchIndex;
    let cleanup: () => Promise<void>;
    let ns: string;

    beforeEach(async () => {
      ({ index, cleanup } = await makeIndex());
      ns = randomUUID().slice(0, 8);
    });
    afterEach(async () => cleanup());

    const org = (suffix = 'a'): string => `org-${ns}-${suffix}`;
    const id = (suffix: string): string => `${ns}-${suffix}`;
    const doc = (
      key: string,
      title: string,
      body: string,
      fields: Record<string, FilterValue> = {},
      version = 1,
      organization = org(),
    ): SearchDocument => ({ id: id(key), organization_id: organization, title, body, fields, version });
    const ids = async (query: Omit<SearchQuery, 'organization_id'> & { organization_id?: string }) =>
      (await index.search({ organization_id: org(), ...query })).map((hit) => hit.id);

    it('upserts, gets and finds a document with its title and fields', async () => {
      const fields = { audience: 'customer_safe', priority: 2, pinned: true, expires_at: null };
      const stored = doc('1', 'Refund policy', 'Annual plans can be refunded within 30 days.', fields);
      await index.upsert([stored]);
      expect(await index.get(stored.id)).toEqual(stored);
      expect(await index.get(id('unknown'))).toBeNull();
      const [hit, ...rest] = await index.search({ organization_id: org(), text: 'refund' });
      expect(rest).toEqual([]);
      expect(hit).toMatchObject({ id: stored.id, title: 'Refund policy', fields: stored.fields });
      expect(typeof hit.score).toBe('number');
    });

    describeRankingContract({ index: () => index, org, id, doc, ids });

    it('isolates organizations: each query sees only its own organization', async () => {
      const text = ['Password reset', 'Reset your password from the login page.'] as const;
      await index.upsert([doc('a1', ...text, {}, 1, org('a')), doc('b1', ...text, {}, 1, org('b'))]);
      expect(await ids({ organization_id: org('a'), text: 'password reset' })).toEqual([id('a1')]);
      expect(await ids({ organization_id: org('b'), text: 'password reset' })).toEqual([id('b1')]);
      expect(await ids({ organization_id: org('c'), text: 'password reset' })).toEqual([]);
      expect(await index.count(org('a'))).toBe(1);
      expect(await index.count(org('c'))).toBe(0);
    });

    describe('filters', () => {
      const p = (key: string, fields: Record<string, FilterValue>) =>
        doc(key, 'Policy', 'The policy text.', fields);
      beforeEach(async () => {
        await index.upsert([
          p('f1', { audience: 'customer_safe', priority: 1, pinned: true, expires_at: 100, source: 's1' }),
          p('f2', { audience: 'internal', priority: 2, pinned: false, expires_at: 200, source: 's2' }),
          p('f3', { audience: 'customer_safe', priority: 3, pinned: false, expires_at: null, source: 's3' }),
          p('f4', { audience: 'it\'s "quoted"', priority: 2.5 }),
        ]);
      });
      const found = async (query: Partial<SearchQuery>) =>
        (await ids({ text: 'policy', limit: 100, ...query })).map((hit) => hit.slice(ns.length + 1)).sort();

      it('matches scalars exactly (strings, numbers, booleans, quotes)', async () => {
        expect(await found({ filters: { audience: 'customer_safe' } })).toEqual(['f1', 'f3']);
        expect(await found({ filters: { audience: 'it\'s "quoted"' } })).toEqual(['f4']);
        expect(await found({ filters: { priority: 2 } })).toEqual(['f2']);
        expect(await found({ filters: { priority: 2.5 } })).toEqual(['f4']);
        expect(await found({ filters: { pinned: true } })).toEqual(['f1']);
        expect(await found({ filters: { pinned: false } })).toEqual(['f2', 'f3']);
        expect(await found({ filters: { audience: 'customer_safe', pinned: false } })).toEqual(['f3']);
        expect(await found({ filters: { audience: 'nobody' } })).toEqual([]);
      });

      it('keeps JSON types apart: a filter of another type matches nothing and never fails', async () => {
        // One field holding a string, a number and a boolean in different documents: every write is accepted.
        await index.upsert([
          p('m1', { mixed: '1' }),
          p('m2', { mixed: 1 }),
          p('m3', { mixed: true }),
          p('m4', { mixed: 'true' }),
        ]);
        expect(await found({ filters: { mixed: '1' } })).toEqual(['m1']);
        expect(await found({ filters: { mixed: 1 } })).toEqual(['m2']);
        expect(await found({ filters: { mixed: true } })).toEqual(['m3']);
        expect(await found({ filters: { mixed: 'true' } })).toEqual(['m4']);
        expect(await found({ filters: { mixed: ['1', true] } })).toEqual(['m1', 'm3']);
        expect(await found({ filters: { mixed: { gte: 0 } } })).toEqual(['m2']);
        // A string on a numeric field, a number on a keyword field, a string on a boolean field.
        expect(await found({ filters: { priority: '2' } })).toEqual([]);
        expect(await found({ filters: { source: 1 } })).toEqual([]);
        expect(await found({ filters: { pinned: 'true' } })).toEqual([]);
        expect(await found({ filters: { audience: { gt: 0 } } })).toEqual([]);
      });

      it('matches null against null and missing fields', async () => {
        expect(await found({ filters: { expires_at: null } })).toEqual(['f3', 'f4']);
        expect(await found({ filters: { source: null } })).toEqual(['f4']);
      });

      it('matches an array as any of its values, null included', async () => {
        expect(await found({ filters: { source: ['s1', 's3', 'nope'] } })).toEqual(['f1', 'f3']);
        expect(await found({ filters: { source: ['s2', null] } })).toEqual(['f2', 'f4']);
        expect(await found({ filters: { priority: [1, 3] } })).toEqual(['f1', 'f3']);
        expect(await found({ filters: { source: [] } })).toEqual([]);
      });

      it('matches numeric ranges, with or_null admitting null and missing', async () => {
        expect(await found({ filters: { expires_at: { gt: 100 } } })).toEqual(['f2']);
        expect(await found({ filters: { expires_at: { gte: 100 } } })).toEqual(['f1', 'f2']);
        expect(await found({ filters: { expires_at: { lt: 200 } } })).toEqual(['f1']);
        expect(await found({ filters: { expires_at: { gte: 100, lte: 200 } } })).toEqual(['f1', 'f2']);
        expect(await found({ filters: { expires_at: { gt: 150, or_null: true } } })).toEqual([
          'f2',
          'f3',
          'f4',
        ]);
        expect(await found({ filters: { priority: { gt: 2, lt: 3 } } })).toEqual(['f4']);
      });

      it('combines any_of alternatives (each a conjunction) with the filters', async () => {
        const anyOf: Array<Record<string, SearchFilter>> = [
          { audience: 'internal' },
          { audience: 'customer_safe', pinned: true },
        ];
        expect(await found({ any_of: anyOf })).toEqual(['f1', 'f2']);
        expect(await found({ any_of: anyOf, filters: { priority: { gte: 2 } } })).toEqual(['f2']);
        expect(await found({ any_of: [{ source: 's3' }, { expires_at: { lt: 150 } }] })).toEqual([
          'f1',
          'f3',
        ]);
        expect(await found({ any_of: [] })).toEqual([]);
      });
    });

    it('a later write is seen by the next search: fields-only changes, text changes and deletes', async () => {
      const chunk = (
        fields: Record<string, FilterValue>,
        version: number,
        body = 'Refunds within 30 days.',
      ) => doc('w', 'Refund policy', body, fields, version);
      const search = (filters: Record<string, SearchFilter> = {}) =>
        index.search({ organization_id: org(), text: 'refunds', filters });
      await index.upsert([chunk({ audience: 'internal', revision: 1 }, 1)]);
      expect((await search())[0]?.fields).toEqual({ audience: 'internal', revision: 1 });
      expect(await search({ audience: 'customer_safe' })).toEqual([]);
      // Same title and body: only the fields move.
      await index.upsert([chunk({ audience: 'customer_safe', revision: 2 }, 2)]);
      expect((await search())[0]?.fields).toEqual({ audience: 'customer_safe', revision: 2 });
      expect((await search({ audience: 'customer_safe' })).map((hit) => hit.id)).toEqual([id('w')]);
      expect(await search({ audience: 'internal' })).toEqual([]);
      await index.upsert([chunk({ audience: 'customer_safe', revision: 3 }, 3, 'Refunds within 60 days.')]);
      expect((await search())[0]?.highlights).toEqual(['«Refunds» within 60 days.']);
      await index.delete([{ id: id('w'), version: 4 }]);
      expect(await search()).toEqual([]);
    });

    it('filters before the limit: rejected better matches never hide a match', async () => {
      const strong = ['Upgrade', 'Upgrade, upgrade, upgrade: how to upgrade a plan.'] as const;
      await index.upsert([
        ...Array.from({ length: 30 }, (_, n) => doc(`s${n}`, ...strong, { audience: 'internal' })),
        doc('weak', 'Billing', 'Plans, invoices, and where to upgrade.', { audience: 'customer_safe' }),
      ]);
      const query = { text: 'upgrade', limit: 2, filters: { audience: 'customer_safe' } };
      expect(await ids(query)).toEqual([id('weak')]);
      expect(await ids({ ...query, filters: {}, any_of: [{ audience: 'customer_safe' }] })).toEqual([
        id('weak'),
      ]);
    });

    it('treats hostile query text as plain words: no error, never everything', async () => {
      await index.upsert([
        doc('alpha', 'Alpha', 'alpha bravo charlie'),
        doc('delta', 'Delta', 'delta echo foxtrot'),
        doc('golf', 'Golf', 'golf hotel india'),
      ]);
      for (const text of HOSTILE_TEXTS) {
        const hits = await ids({ text });
        expect({ text, all: hits.length === 3 }).toEqual({ text, all: false });
      }
      expect(await ids({ text: '"alpha' })).toEqual([id('alpha')]);
      expect(await ids({ text: 'title:alpha' })).toEqual([id('alpha')]);
      expect(await ids({ text: 'alpha*' })).toEqual([id('alpha')]);
      expect(await ids({ text: 'NEAR(' })).toEqual([]);
      expect(await ids({ text: '*' })).toEqual([]);
    });

    it('returns nothing for empty, whitespace-only, symbol-only or stop-word-only text', async () => {
      await index.upsert([doc('1', 'The', 'the and or to be')]);
      for (const text of ['', '   ', '\n\t', '***', '?!', 'the and', 'to be or not to be']) {
        expect(await ids({ text })).toEqual([]);
      }
    });

    it('applies the limit: default 10, at most 1000', async () => {
      await index.upsert(
        Array.from({ length: 12 }, (_, n) => doc(`l${n}`, 'Invoice', `Invoice number ${n}`)),
      );
      expect(await ids({ text: 'invoice' })).toHaveLength(10);
      expect(await ids({ text: 'invoice', limit: 3 })).toHaveLength(3);
      expect(await ids({ text: 'invoice', limit: 1000 })).toHaveLength(12);
      await expect(ids({ text: 'invoice', limit: 1001 })).rejects.toThrow(RangeError);
      await expect(ids({ text: 'invoice', limit: 0 })).rejects.toThrow(RangeError);
    });

    it('highlights at most three body excerpts with matched terms in « »', async () => {
      const filler = 'lorem ipsum dolor sit amet, consectetur adipiscing elit '.repeat(6);
      const body = [1, 2, 3, 4, 5].map((n) => `Step ${n}: request a refund. ${filler}`).join(' ');
      await index.upsert([doc('h', 'Refunds', body), doc('t', 'Refund', 'Nothing about it in here.')]);
      const hits = await index.search({ organization_id: org(), text: 'refunds' });
      const hit = hits.find((h) => h.id === id('h'));
      expect(hit?.highlights.length).toBeGreaterThan(0);
      expect(hit?.highlights.length).toBeLessThanOrEqual(3);
      for (const excerpt of hit?.highlights ?? []) expect(excerpt).toContain('«refund»');
      expect(hits.find((h) => h.id === id('t'))?.highlights).toEqual([]);
    });

    describe('version guard', () => {
      const v = (version: number, title = `version ${version}`) =>
        doc('v', title, 'Versioned chunk text.', { version_seen: version }, version);

      it('ignores an older upsert and re-applies an equal one idempotently', async () => {
        await index.upsert([v(5)]);
        await index.upsert([v(3)]);
        expect(await index.get(id('v'))).toEqual(v(5));
        await index.upsert([v(5)]);
        await index.upsert([v(5)]);
        expect(await index.get(id('v'))).toEqual(v(5));
        expect(await index.count(org())).toBe(1);
        await index.upsert([v(7), v(6)]);
        expect((await index.get(id('v')))?.version).toBe(7);
      });

      it('ignores an older delete', async () => {
        await index.upsert([v(5)]);
        await index.delete([{ id: id('v'), version: 4 }]);
        expect(await index.get(id('v'))).toEqual(v(5));
      });

      it('keeps a deleted document deleted when an older upsert arrives late', async () => {
        await index.upsert([v(5)]);
        await index.delete([{ id: id('v'), version: 7 }]);
        await index.upsert([v(6)]);
        expect(await index.get(id('v'))).toBeNull();
        expect(await ids({ text: 'versioned' })).toEqual([]);
        expect(await index.count(org())).toBe(0);
        await index.delete([{ id: id('v'), version: 7 }]);
        await index.upsert([v(8)]);
        expect(await index.get(id('v'))).toEqual(v(8));
      });

      it('accepts deletes of unknown ids, and remembers their version', async () => {
        await index.delete([{ id: id('ghost'), version: 3 }]);
        await index.upsert([{ ...v(2), id: id('ghost') }]);
        expect(await index.get(id('ghost'))).toBeNull();
      });
    });

    it('dumps every live document ordered by id', async () => {
      const docs = ['c', 'a', 'e', 'b', 'd'].map((key) => doc(key, `Title ${key}`, `Body ${key}`, { key }));
      await index.upsert(docs);
      await index.delete([{ id: id('e'), version: 2 }]);
      const dumped: SearchDocument[] = [];
      for await (const document of index.dump()) dumped.push(document);
      const dumpedIds = dumped.map((d) => d.id);
      expect(dumpedIds).toEqual(
        [...dumpedIds].sort((x, y) => Buffer.compare(Buffer.from(x), Buffer.from(y))),
      );
      const mine = dumped.filter((d) => d.organization_id === org());
      expect(mine).toEqual(['a', 'b', 'c', 'd'].map((key) => docs.find((d) => d.id === id(key))));
    });

    it('counts live documents per organization and in total', async () => {
      const before = await index.count();
      await index.upsert([
        doc('1', 'One', 'x', {}, 1, org('a')),
        doc('2', 'Two', 'x', {}, 1, org('a')),
        doc('3', 'Three', 'x', {}, 1, org('b')),
      ]);
      expect([await index.count(org('a')), await index.count(org('b'))]).toEqual([2, 1]);
      await index.delete([{ id: id('1'), version: 2 }]);
      expect(await index.count(org('a'))).toBe(1);
      expect(await index.count()).toBe(before + 2);
    });

    it('resets: removes every document and forgets versions', async () => {
      await index.upsert([doc('r', 'Reset me', 'soon gone', {}, 10)]);
      await index.delete([{ id: id('gone'), version: 10 }]);
      await index.reset();
      expect(await index.count()).toBe(0);
      expect(await index.get(id('r'))).toBeNull();
      expect(await ids({ text: 'reset' })).toEqual([]);
      await index.upsert([doc('r', 'Reset me', 'replayed', {}, 1), doc('gone', 'Back', 'x')]);
      expect((await index.get(id('r')))?.body).toBe('replayed');
      expect(await index.get(id('gone'))).not.toBeNull();
    });

    describeCollapseContract({ index: () => index, org, id, doc, ids, ns: () => ns });

    it('rejects invalid input and answers ping', async () => {
      await expect(index.upsert([doc('bad', 't', 'b', { 'Bad-Key': 1 })])).rejects.toThrow();
      await expect(index.upsert([{ ...doc('bad', 't', 'b'), version: -1 }])).rejects.toThrow();
      await expect(index.search({ organization_id: '', text: 'x' })).rejects.toThrow();
      await expect(ids({ text: 'x', filters: { 'a.b': 1 } })).rejects.toThrow();
      await expect(index.ping()).resolves.toBeUndefined();
    });
  });
}

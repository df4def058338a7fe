/**
 * The embedded index with a body source (body-source.ts; in Cairn the memory read model): rows keep no body once
 * their postings are stored, and everything that reads a body — highlights, get(), dump(), a changed or deleted
 * document's old postings, re-indexing — gets it from the source, checked against the row hash. What the index
 * stores in the end is what an index keeping its bodies stores, whatever the source knows.
 */
import { join } from 'node:path';
import { packBody } from '../../src/infrastructure/search/sqlite/body-codec';
import fc from 'fast-check';
import type { SearchDocument, SearchWrite } from '../../src/infrastructure/search/search-index.port';
import { SqliteSearchIndex } from '../../src/infrastructure/search/sqlite/sqlite-search-index';
import { openSqlite, type SqliteDatabase } from '../../src/infrastructure/sqlite/sqlite-connection';
import { CommittedBodies } from '../support/committed-bodies';
import { storedDigest } from '../support/search-digest';
import { makeTempDir } from '../support/temp-dir';
import { describeSearchIndexContract } from './search-index.contract';

describeSearchIndexContract('SQLite with a body source (bodies in the read model)', async () => {
  const temp = makeTempDir('cairn-search-source-');
  const db = openSqlite({ path: join(temp.dir, 'cairn.sqlite') });
  const source = new CommittedBodies();
  const index = source.follow(new SqliteSearchIndex(db, { bodySource: source }));
  return {
    index,
    cleanup: async () => {
      await index.close();
      db.close();
      temp.cleanup();
    },
  };
});

const WORDS = 'glacier moraine cairn river delta basalt tundra fjord summit ridge valley scree cirque'.split(
  ' ',
);

/** A multi-sentence chunk of item `item`: words picked by `seed`, and a marker naming the chunk and its text. */
function chunk(item: number, part: number, seed: number, org = 'org-1'): SearchDocument {
  const words = Array.from({ length: 30 }, (_, i) => WORDS[(seed * 5 + i * ((seed % 4) + 1)) % WORDS.length]);
  return {
    id: `chunk-${item}-${part}`,
    organization_id: org,
    title: `Runbook ${item} — section ${part}`,
    body: `${words.slice(0, 15).join(' ')}. ${words.slice(15).join(' ')} marker${item}p${part}s${seed}.`,
    fields: { memory_item_id: item, memory_chunk_id: item * 100 + part },
    version: 1,
  };
}

const upserts = (docs: SearchDocument[]): SearchWrite[] =>
  docs.map((document) => ({ kind: 'upsert', document }));

function storedBodyBytes(db: SqliteDatabase): number {
  return db
    .prepare('SELECT coalesce(sum(length(body)), 0) FROM search_index_documents')
    .pluck()
    .get() as number;
}

function deferredBodies(db: SqliteDatabase): number {
  return db.prepare('SELECT count(*) FROM search_index_deferred_bodies').pluck().get() as number;
}

function generations(db: SqliteDatabase): string[] {
  return db
    .prepare('SELECT generation FROM search_index_organizations ORDER BY org_key')
    .pluck()
    .all() as string[];
}

describe('SQLite search index with a body source', () => {
  const temp = makeTempDir('cairn-body-source-');
  afterAll(() => temp.cleanup());
  let n = 0;
  const opened: Array<{ index: SqliteSearchIndex; db: SqliteDatabase }> = [];
  afterEach(async () => {
    for (const { index, db } of opened.splice(0)) {
      if (db.open) await index.close();
      if (db.open) db.close();
    }
  });
  /** A new file: with `source`, an index reading bodies from it (following its writes); without, one keeping them. */
  const open = (source?: CommittedBodies, path = join(temp.dir, `case-${++n}.sqlite`)) => {
    const db = openSqlite({ path });
    let plain: SqliteSearchIndex;
    try {
      plain = new SqliteSearchIndex(db, source ? { bodySource: source } : {});
    } catch (error) {
      db.close();
      throw error;
    }
    const index = source ? source.follow(plain) : plain;
    opened.push({ index, db });
    return { index, db, path };
  };
  const search = (index: SqliteSearchIndex, text: string) =>
    index.search({ organization_id: 'org-1', text, limit: 20 });
  const ids = async (index: SqliteSearchIndex, text: string) =>
    (await search(index, text)).map((h) => h.id).sort();

  it('keeps no body in its rows, and highlights, get() and dump() read the source', async () => {
    const source = new CommittedBodies();
    const { index, db } = open(source);
    const docs = [chunk(1, 0, 1), chunk(1, 1, 2), chunk(2, 0, 3)];
    await index.upsert(docs);
    expect(storedBodyBytes(db)).toBe(0);
    const [hit] = await search(index, 'marker1p1s2');
    expect(hit.id).toBe('chunk-1-1');
    expect(hit.highlights.join(' ')).toContain('«marker1p1s2»');
    expect(await index.get('chunk-2-0')).toEqual(docs[2]);
    const dumped: SearchDocument[] = [];
    for await (const doc of index.dump()) dumped.push(doc);
    expect(dumped).toEqual([...docs].sort((a, b) => a.id.localeCompare(b.id)));
    expect(index.unindexedWithoutText).toBe(0);
  });

  it('never shows a text the source gives that is not the indexed one', async () => {
    const source = new CommittedBodies();
    const { index } = open(source);
    const doc = chunk(3, 0, 4);
    await index.upsert([doc]);
    source.texts.set(doc.id, `${doc.body} glacier injected`);
    const [hit] = await search(index, 'marker3p0s4');
    expect(hit.id).toBe(doc.id);
    expect(hit.highlights).toEqual([]);
    expect((await index.get(doc.id))?.body).toBe('');
  });

  it('keeps a deferred batch’s bodies until its postings are stored, then drops them', async () => {
    const source = new CommittedBodies();
    const { index, db } = open(source);
    const docs = [chunk(4, 0, 5), chunk(4, 1, 6)];
    await index.write(upserts(docs), { defer_visibility: true });
    expect(deferredBodies(db)).toBe(2);
    expect(storedBodyBytes(db)).toBe(0);
    // Kept as text: they are deleted within a few thousand documents, so deflating them would only cost the writer.
    const kept = db
      .prepare('SELECT typeof(body) AS type, body FROM search_index_deferred_bodies ORDER BY doc_no')
      .all();
    expect(kept).toEqual(docs.map((doc) => ({ type: 'text', body: doc.body })));
    await index.refresh();
    expect(deferredBodies(db)).toBe(0);
    expect(await ids(index, 'marker4p1s6')).toEqual(['chunk-4-1']);
  });

  it('a process that stopped with deferred postings: the next one indexes them from the kept bodies', async () => {
    const source = new CommittedBodies();
    const first = open(source);
    const docs = Array.from({ length: 40 }, (_, i) => chunk(10 + Math.floor(i / 4), i % 4, i));
    await first.index.write(upserts(docs), { defer_visibility: true });
    // Stopped: no refresh, no close; and the read model never committed what the index wrote. Half of the kept
    // bodies as an earlier build kept them (deflated BLOBs): both are read.
    const pack = first.db.prepare('UPDATE search_index_deferred_bodies SET body = ? WHERE doc_no = ?');
    for (const row of first.db
      .prepare('SELECT doc_no, body FROM search_index_deferred_bodies WHERE doc_no % 2 = 0')
      .all() as Array<{ doc_no: number; body: string }>)
      pack.run(packBody(row.body), row.doc_no);
    first.db.close();
    const next = open(new CommittedBodies(), first.path);
    expect(await ids(next.index, 'marker19p3s39')).toEqual(['chunk-19-3']);
    expect(deferredBodies(next.db)).toBe(0);

    const reference = open();
    await reference.index.write(upserts(docs));
    expect(storedDigest(next.db)).toBe(storedDigest(reference.db));
  });

  it('a changed document whose old text the source lost: its partition is searched, nothing stale is left', async () => {
    const source = new CommittedBodies();
    const { index, db } = open(source);
    const reference = open();
    const first = [chunk(5, 0, 7), chunk(5, 1, 8), chunk(6, 0, 9)];
    const changed = { ...chunk(5, 1, 10), version: 2 };
    for (const target of [index, reference.index]) await target.upsert(first);
    source.texts.clear();
    for (const target of [index, reference.index]) await target.upsert([changed]);
    expect(index.unindexedWithoutText).toBe(1);
    expect(await ids(index, 'marker5p1s8')).toEqual([]);
    expect(await ids(index, 'marker5p1s10')).toEqual(['chunk-5-1']);
    expect(storedDigest(db)).toBe(storedDigest(reference.db));
    expect(generations(db)).toEqual(generations(reference.db));
  });

  it('a changed document whose old text the source or its batch holds: no partition is searched', async () => {
    const source = new CommittedBodies();
    const { index, db } = open(source);
    const reference = open();
    const first = [chunk(7, 0, 11), chunk(7, 1, 12)];
    const writes: SearchWrite[][] = [
      upserts(first),
      upserts([{ ...chunk(7, 0, 13), version: 2 }]),
      [{ kind: 'delete', id: 'chunk-7-1', version: 3 }],
      // Written and changed, written and deleted, within one batch: the batch's own text is used.
      [
        ...upserts([
          { ...chunk(7, 2, 14), version: 4 },
          { ...chunk(7, 3, 15), version: 4 },
        ]),
        ...upserts([{ ...chunk(7, 2, 16), version: 5 }]),
        { kind: 'delete', id: 'chunk-7-3', version: 5 },
      ],
    ];
    for (const batch of writes) {
      await index.write(batch);
      await reference.index.write(batch);
    }
    expect(index.unindexedWithoutText).toBe(0);
    expect(await ids(index, 'marker7p1s12')).toEqual([]);
    expect(await ids(index, 'marker7p2s14')).toEqual([]);
    expect(await ids(index, 'marker7p2s16')).toEqual(['chunk-7-2']);
    expect(await ids(index, 'marker7p3s15')).toEqual([]);
    expect(storedDigest(db)).toBe(storedDigest(reference.db));
  });

  it('a file whose rows keep their bodies (layout 10) is re-indexed when opened with a source: bodies dropped', async () => {
    const kept = open();
    const docs = [chunk(8, 0, 14), chunk(8, 1, 15), chunk(9, 0, 16)];
    await kept.index.upsert(docs);
    const expected = storedDigest(kept.db);
    kept.db.prepare(`UPDATE search_index_meta SET value = '10.1' WHERE key = 'version'`).run();
    await kept.index.close();
    kept.db.close();
    const source = new CommittedBodies();
    for (const doc of docs) source.texts.set(doc.id, doc.body);
    const reopened = open(source, kept.path);
    expect(storedBodyBytes(reopened.db)).toBe(0);
    expect(storedDigest(reopened.db)).toBe(expected);
    const [hit] = await search(reopened.index, 'marker8p1s15');
    expect(hit.highlights.join(' ')).toContain('«marker8p1s15»');
  });

  it('a later layout change re-indexes from the source’s checked texts; one it lost is left out, with a warning', async () => {
    const source = new CommittedBodies();
    const first = open(source);
    const docs = [chunk(11, 0, 17), chunk(11, 1, 18), chunk(12, 0, 19)];
    await first.index.upsert(docs.slice(0, 2));
    // One document's postings deferred when the layout changes: its body is beside the row, not in the source.
    await first.index.write(upserts(docs.slice(2)), { defer_visibility: true });
    const reference = open();
    await reference.index.upsert(docs);
    const expected = storedDigest(reference.db);
    first.db.prepare(`UPDATE search_index_meta SET value = '10.1' WHERE key = 'version'`).run();
    first.db.close();
    const reopened = open(source, first.path);
    expect(storedDigest(reopened.db)).toBe(expected);
    expect([storedBodyBytes(reopened.db), deferredBodies(reopened.db)]).toEqual([0, 0]);
    const [hit] = await search(reopened.index, 'marker12p0s19');
    expect(hit.highlights.join(' ')).toContain('«marker12p0s19»');

    reopened.db.prepare(`UPDATE search_index_meta SET value = '10.1' WHERE key = 'version'`).run();
    await reopened.index.close();
    reopened.db.close();
    // The read model lost one document's text: the re-index leaves that document out (never a wrong text), says
    // so, and opens; the document's next write (a replay) indexes it again.
    source.texts.delete('chunk-11-1');
    const warned = jest.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    try {
      const degraded = open(source, first.path);
      expect(degraded.index.droppedAtOpen).toBe(1);
      expect(warned).toHaveBeenCalledWith(
        expect.stringContaining('projections:rebuild memory'),
        expect.objectContaining({ code: 'CAIRN_SEARCH_DOCUMENTS_DROPPED' }),
      );
      expect(await ids(degraded.index, 'marker11p1s18')).toEqual([]);
      // Left out, not kept with its title alone (nor an empty text).
      expect(await degraded.index.get('chunk-11-1')).toBeNull();
      expect(await ids(degraded.index, 'marker11p0s17')).toEqual(['chunk-11-0']);
      await degraded.index.upsert([docs[1]]);
      expect(await ids(degraded.index, 'marker11p1s18')).toEqual(['chunk-11-1']);
      expect(await degraded.index.count('org-1')).toBe(3);
    } finally {
      warned.mockRestore();
    }
  });

  it('stores what an index keeping its bodies stores, for any writes and whatever the source forgets', async () => {
    const op = fc.record({
      item: fc.integer({ min: 1, max: 4 }),
      part: fc.integer({ min: 0, max: 2 }),
      seed: fc.integer({ min: 0, max: 30 }),
      kind: fc.constantFrom('upsert', 'upsert', 'delete'),
    });
    const step = fc.record({
      ops: fc.array(op, { minLength: 1, maxLength: 5 }),
      deferred: fc.boolean(),
      forget: fc.boolean(),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 8 }), async (steps) => {
        const source = new CommittedBodies();
        const subject = open(source);
        const reference = open();
        let version = 0;
        for (const { ops, deferred, forget } of steps) {
          const batch: SearchWrite[] = ops.map(({ item, part, seed, kind }) =>
            kind === 'upsert'
              ? { kind, document: { ...chunk(item, part, seed), version: ++version } }
              : { kind, id: `chunk-${item}-${part}`, version: ++version },
          );
          if (forget) source.texts.clear();
          await subject.index.write(batch, { defer_visibility: deferred });
          await reference.index.write(batch, { defer_visibility: deferred });
        }
        await subject.index.refresh();
        await reference.index.refresh();
        expect(storedDigest(subject.db)).toBe(storedDigest(reference.db));
        expect(generations(subject.db)).toEqual(generations(reference.db));
        expect([storedBodyBytes(subject.db), deferredBodies(subject.db)]).toEqual([0, 0]);
      }),
      { numRuns: 60 },
    );
  });
});

/**
 * The embedded SearchIndex: BM25 over posting lists kept in the SQLite file shared with the event store and
 * read store (search-schema.ts, postings.ts). SQLite FTS5 is not used: its bm25() fixes k1 and b, and scoring
 * every match through it took ~80 ms on 100k chunks.
 *
 * - Analysis (analyzer.ts): Lucene-style English words, possessives, lower case, diacritics removed, English
 *   stop words, Porter stemming; the same for documents, queries and highlights.
 * - Scoring (bm25.ts): BM25F over title and body with k1 = 0.9, b = 0.4, title weight `title_boost` (default
 *   1: title and body as one field), statistics per organization.
 * - Search: a deferred read transaction (one snapshot) reads the organization's statistics and each query
 *   term's own posting rows and the documents' lengths (scored postings kept in memory for the organization's
 *   current generation, posting-cache.ts), scores every matching document, then looks up the best ones (a slice at a time,
 *   growing) and applies the field filters to them in memory until `limit` documents passed. Highlights are cut from the body on
 *   first access of `hit.highlights` (a caller that reads few of them pays for few).
 * - Writes (document-writer.ts) run in short IMMEDIATE transactions (several processes share the file) of at
 *   most WRITE_BATCH documents, yielding to the event loop between batches.
 */
import { decodeFields } from './field-codec';
import type { SqliteDatabase, SqliteTransaction } from '../../sqlite/sqlite-connection';
import {
  SEARCH_COLLAPSE_FIELD,
  type SearchDocument,
  type SearchHit,
  type SearchIndex,
  type SearchQuery,
  type SearchWrite,
  type SearchWriteOptions,
} from '../search-index.port';
import { DocumentWriter, keepBodiesInRows } from './document-writer';
import { STORED_BODY, type OrgRow } from './document-statements';
import { resolveBodies, storesBody, type BodyRow, type SearchBodySource } from './body-source';
import { BodyReader } from './body-reader';
import { type Found, LazyHighlightHit } from './lazy-highlight-hit';
import { type CollapsedRows, lookUpCollapsed, lookUpValues, type MemberRow } from './collapsed-lookup';
import { MemberCache, readMembers } from './member-cache';
import { failingExpiry, fieldMatcher } from './field-matcher';
import { PostingCache } from './posting-cache';
import { type CachedRow, RowCache } from './row-cache';
import { type DocumentLengths, readLengths } from './document-lengths';
import {
  MaxScoreRanker,
  type RankedDoc,
  RankedMatches,
  SCORED_POSTINGS,
  WARM_SCORED_POSTINGS,
} from './max-score';
import { scorePostings } from './dense-sums';
import { termWeighting, type TermWeighting } from './bm25';
import { computeBlockMaxima, maximaUnder } from './block-maxima';
import { readTermBlocks, type ScoredPostings, type TermBlocks } from './term-blocks';
import { groupOf, partitionOf } from './postings';
import { DOCS, ensureSearchSchema, LENGTHS, ORGS, POSTINGS, recreateSearchSchema } from './search-schema';
import { type NormalizedQuery, normalizeQuery, validateDeletes, validateDocuments } from './search-input';

/** Documents per write transaction: a batch rewrites the posting rows of the terms and partitions it touches. */
const WRITE_BATCH = 5_000;
const DUMP_PAGE = 500;
/** Filtered lookups after the first (of `limit` documents) ask for this many times more. */
const LOOKUP_GROWTH = 4;
/** Organizations whose document lengths stay in memory (6 bytes a document). */
const LENGTHS_KEPT = 8;

interface DocumentRow extends BodyRow {
  organization_id: string;
}

interface FoundRow {
  doc_no: number;
  id: string;
  title: string;
  fields: string;
}

/**
 * What scored postings and lengths are cached for: the generation (the rows) and how far postings are stored
 * (deferred postings are stored later without changing any row).
 */
function postedGeneration(org: OrgRow): string {
  return `${org.generation}/${org.posted_doc_no}`;
}

/** JSON arrays of groups 0..n-1, by n (a term's read asks for every group its organization's documents span). */
const groupLists: string[] = [];

/** The groups (postings.ts groupOf) of an organization whose next document number is `nextDocNo`, as JSON. */
function termGroups(nextDocNo: number): string {
  const count = groupOf(partitionOf(Math.max(0, nextDocNo - 1))) + 1;
  let list = groupLists[count];
  if (list === undefined) {
    list = JSON.stringify(Array.from({ length: count }, (_, group) => group));
    if (count < 4096) groupLists[count] = list;
  }
  return list;
}

/** The documents of `rows`, their bodies resolved (body-source.ts; '' when unknown). */
function toDocuments(rows: readonly DocumentRow[], source: SearchBodySource | undefined): SearchDocument[] {
  const bodies = resolveBodies(rows, source);
  return rows.map(({ id, organization_id, title, version, fields }) => ({
    id,
    organization_id,
    title,
    body: bodies.get(id) ?? '',
    fields: decodeFields(fields),
    version,
  }));
}

function prepareStatements(db: SqliteDatabase, collapseField: string | undefined) {
  const columns = `id, organization_id, title, ${STORED_BODY}, fields, version, doc_no, row_hash`;
  return {
    organization: db.prepare<[string], OrgRow>(
      `SELECT org_key, documents, title_tokens, body_tokens, next_doc_no, posted_doc_no, generation FROM ${ORGS} WHERE organization_id = ?`,
    ),
    bodies: db.prepare<[string], BodyRow>(
      `SELECT id, doc_no, version, title, fields, row_hash, ${STORED_BODY} FROM ${DOCS} ` +
        `WHERE id IN (SELECT value FROM json_each(?)) AND deleted = 0`,
    ),
    // The term's own rows, one per partition it occurs in, in partition order (the key is organization, group,
    // term, partition: one seek per group): organization key, its groups (a JSON array, termGroups), term.
    // Plucked: the blobs themselves, no row object each (a frequent term has a row per partition).
    postings: db
      .prepare<[number, string, string], Buffer>(
        `SELECT data FROM ${POSTINGS} WHERE org_key = ? AND grp IN (SELECT value FROM json_each(?)) AND term = ?
       ORDER BY grp, part`,
      )
      .pluck(),
    lengths: db.prepare<[number], { part: number; data: Buffer }>(
      `SELECT part, data FROM ${LENGTHS} WHERE org_key = ?`,
    ),
    getOne: db.prepare<[string], DocumentRow>(`SELECT ${columns} FROM ${DOCS} WHERE id = ? AND deleted = 0`),
    dumpPage: db.prepare<[string, number], DocumentRow>(
      `SELECT ${columns} FROM ${DOCS} WHERE id > ? AND deleted = 0 ORDER BY id LIMIT ?`,
    ),
    lookUp: db.prepare<[number, string], FoundRow>(
      `SELECT doc_no, id, title, fields FROM ${DOCS} WHERE org_key = ? AND deleted = 0 ` +
        `AND doc_no IN (SELECT value FROM json_each(?))`,
    ),
    // Every live document of some collapse values (the collapse index).
    members:
      collapseField === undefined
        ? undefined
        : db.prepare<[number, string], FoundRow & { value: number }>(
            `SELECT doc_no, id, title, fields, collapse_key AS value FROM ${DOCS} WHERE org_key = ? AND deleted = 0 ` +
              `AND collapse_key IN (SELECT value FROM json_each(?))`,
          ),
    countAll: db.prepare<[], { n: number }>(`SELECT coalesce(sum(documents), 0) AS n FROM ${ORGS}`),
    countOrganization: db.prepare<[string], { n: number }>(
      `SELECT documents AS n FROM ${ORGS} WHERE organization_id = ?`,
    ),
  };
}

export class SqliteSearchIndex implements SearchIndex {
  private readonly writer: DocumentWriter;
  private readonly statements: ReturnType<typeof prepareStatements>;
  private readonly postings: PostingCache;
  /** Each organization's document lengths, for one generation. */
  private readonly lengths = new Map<number, { generation: string; lengths: DocumentLengths }>();
  private readonly rows: RowCache;
  /** Each collapse value's live documents, for one generation (their rows are in `rows`). */
  private readonly memberLists = new MemberCache();
  /** rank() in one read transaction (made once: better-sqlite3 builds several wrappers per transaction). */
  private readonly rankInSnapshot: SqliteTransaction<(q: NormalizedQuery) => Found[]>;
  /** The bodies of existing ids: as stored (unpacked when a hit is highlighted), or the source's confirmed text. */
  private readonly readBodies = (ids: string[]): Map<string, Buffer | string> => {
    const found = new Map<string, Buffer | string>();
    const unstored: BodyRow[] = [];
    for (const row of this.statements.bodies.all(JSON.stringify(ids))) {
      if (storesBody(row)) found.set(row.id, row.stored_body);
      else unstored.push(row);
    }
    for (const [id, body] of resolveBodies(unstored, this.bodySource)) found.set(id, body);
    return found;
  };
  private readonly bodySource: SearchBodySource | undefined;

  private readonly collapseField: string | undefined;

  /**
   * `rowCacheBytes`: the bound of the looked-up rows kept between queries (row-cache.ts); `postingCacheBytes`: the
   * posting cache's budget (posting-cache.ts). `collapseField`: the
   * one field queries can collapse by (SearchQuery.collapse; default SEARCH_COLLAPSE_FIELD, null for none): each
   * document's value of it is kept with its lengths, and the file records it (another reindexes when opened).
   * `bodySource`: where bodies are read once rows no longer keep them (body-source.ts); without one, every row
   * keeps its body.
   */
  constructor(
    private readonly db: SqliteDatabase,
    options: {
      rowCacheBytes?: number;
      collapseField?: string | null;
      postingCacheBytes?: number;
      bodySource?: SearchBodySource;
    } = {},
  ) {
    this.bodySource = options.bodySource;
    this.rows = new RowCache(options.rowCacheBytes);
    this.postings = new PostingCache(options.postingCacheBytes);
    const field =
      options.collapseField === undefined ? SEARCH_COLLAPSE_FIELD : (options.collapseField ?? undefined);
    this.collapseField = field;
    ensureSearchSchema(
      db,
      field,
      () => new DocumentWriter(db, field, this.bodySource).reindexAll(),
      () => {
        this.droppedAtOpen = keepBodiesInRows(db, this.bodySource).length;
      },
    );
    if (this.droppedAtOpen > 0) {
      process.emitWarning(
        `the search index was re-indexed without ${this.droppedAtOpen} document(s) whose text the read model ` +
          'no longer holds; run `cairn projections:rebuild memory` to index them again',
        { code: 'CAIRN_SEARCH_DOCUMENTS_DROPPED' },
      );
    }
    this.writer = new DocumentWriter(db, field, this.bodySource);
    // Documents whose postings a stopped process deferred and never stored (none, usually: one read).
    if (this.writer.needsRepair()) db.transaction(() => this.writer.repairAll()).immediate();
    this.statements = prepareStatements(db, field);
    this.rankInSnapshot = db.transaction((q: NormalizedQuery) => this.rank(q));
  }

  /** Documents a layout change's re-index left out when this index was opened: their text was known nowhere. */
  droppedAtOpen = 0;

  /**
   * Documents this process unindexed without knowing their indexed text (a changed or deleted document whose body
   * the source no longer held): each cost a read of its partition's postings (Batch.unindexUnknown).
   */
  get unindexedWithoutText(): number {
    return this.writer.unindexedUnknown;
  }

  /** Stores the postings this process deferred (a committed write without `defer_visibility` is visible already). */
  async refresh(): Promise<void> {
    this.flushDeferred();
  }

  async write(writes: SearchWrite[], options: SearchWriteOptions = {}): Promise<void> {
    validateDocuments(writes.flatMap((w) => (w.kind === 'upsert' ? [w.document] : [])));
    validateDeletes(writes.flatMap((w) => (w.kind === 'delete' ? [w] : [])));
    const defer = options.defer_visibility === true;
    const apply = this.db.transaction((batch: SearchWrite[]) => this.writer.apply(batch, { defer }));
    await this.inBatches(writes, (batch) => apply.immediate(batch));
  }

  private flushDeferred(): void {
    if (this.writer.hasPending) this.db.transaction(() => this.writer.flushPending()).immediate();
  }

  async upsert(documents: SearchDocument[]): Promise<void> {
    await this.write(documents.map((document) => ({ kind: 'upsert', document })));
  }

  async delete(items: Array<{ id: string; version: number }>): Promise<void> {
    await this.write(items.map(({ id, version }) => ({ kind: 'delete', id, version })));
  }

  async search(query: SearchQuery): Promise<SearchHit[]> {
    const q = normalizeQuery(query, this.collapseField);
    if (q.terms.length === 0) return [];
    const found = this.rankInSnapshot.deferred(q);
    const terms = new Set(q.terms.map((t) => t.term));
    const bodies = new BodyReader(
      found.map((match) => match.id),
      this.readBodies,
    );
    return found.map((match) => new LazyHighlightHit(match, terms, bodies));
  }

  /** The best matches of the organization's documents (max-score.ts) that pass the filters. */
  private rank(q: NormalizedQuery): Found[] {
    const org = this.statements.organization.get(q.organizationId);
    if (org === undefined || org.documents === 0) return [];
    const stats = { documents: org.documents, titleTokens: org.title_tokens, bodyTokens: org.body_tokens };
    const lengths = this.lengthsOf(org);
    const weigh = (blocks: TermBlocks) => termWeighting(blocks.df, stats, q.titleBoost);
    const terms = q.terms.map(({ term, weight }) => ({
      blocks: this.blocksOf(org, term, weigh, lengths),
      weight,
    }));
    const ranker = new MaxScoreRanker(terms, lengths, stats, q.titleBoost);
    ranker.skip = failingExpiry(q.filters, lengths.expiry);
    if (q.collapse?.values !== undefined)
      return lookUpValues(this.collapsedRows, org, { ranker, keys: lengths.keys, query: q });
    if (q.collapse !== undefined)
      return lookUpCollapsed(this.collapsedRows, org, { ranker, keys: lengths.keys, query: q });
    return this.lookUp(org, new RankedMatches(ranker), q);
  }

  /** Rows of ranked matches and of collapse values, for lookUpCollapsed. */
  private readonly collapsedRows: CollapsedRows = {
    rowsFor: (org, matches) => this.rowsFor(org, matches),
    memberRows: (org, keys) => this.memberRows(org, keys),
  };

  /** Every live document of the collapse values `keys`. */
  private memberRows(org: OrgRow, keys: number[]): MemberRow[] {
    const statement = this.statements.members;
    if (keys.length === 0 || statement === undefined) return [];
    const rows = this.rows.rowsOf(org.org_key, org.generation);
    const lists = this.memberLists.listsOf(org.org_key, org.generation);
    return readMembers(
      keys,
      { rows, lists },
      (missing) =>
        statement.all(org.org_key, JSON.stringify(missing)).map((row) => ({
          docNo: row.doc_no,
          value: row.value,
          row: { id: row.id, title: row.title, fields: Object.freeze(decodeFields(row.fields)) },
        })),
      (kept) => {
        for (const member of kept.rows) this.rows.add(rows, member.docNo, member.row);
        for (const [key, docs] of kept.lists) this.memberLists.add(lists, key, docs);
      },
    );
  }

  /** The rows of `matches` (cached for this generation, the rest read in one statement). */
  private rowsFor(org: OrgRow, matches: RankedDoc[]): Array<CachedRow | undefined> {
    const cached = this.rows.rowsOf(org.org_key, org.generation);
    // The rows are taken before any are added: an add can start the cache over.
    const rows = matches.map((match) => cached.get(match.docNo));
    const missing = matches.filter((_, i) => rows[i] === undefined).map((match) => match.docNo);
    if (missing.length === 0) return rows;
    const fetched = new Map<number, CachedRow>();
    for (const row of this.statements.lookUp.all(org.org_key, JSON.stringify(missing))) {
      // Frozen: hits share the cached fields, so no caller can change what the next query sees.
      const fields = Object.freeze(decodeFields(row.fields));
      fetched.set(row.doc_no, { id: row.id, title: row.title, fields });
    }
    for (const [docNo, row] of fetched) this.rows.add(cached, docNo, row);
    return matches.map((match, i) => rows[i] ?? fetched.get(match.docNo));
  }

  /**
   * A term's postings in this snapshot: its own rows, one per partition it occurs in, with their scores when they
   * are few (cached for the generation). A cached term asked for again gets its blocks' exact maxima under this
   * query's weighting (block-maxima.ts), which the ranking then bounds its blocks by, and its scores when it has up
   * to WARM_SCORED_POSTINGS postings; a term read for the first time keeps its header bounds (a cold query would
   * pay a pass over every posting for them).
   */
  private blocksOf(
    org: OrgRow,
    term: string,
    weigh: (blocks: TermBlocks) => TermWeighting,
    lengths: DocumentLengths,
  ): TermBlocks {
    const generation = postedGeneration(org);
    let blocks = this.postings.get(org.org_key, generation, term);
    if (blocks === undefined) {
      blocks = readTermBlocks(this.statements.postings.all(org.org_key, termGroups(org.next_doc_no), term));
      if (blocks.df <= SCORED_POSTINGS) keepScores(blocks, weigh(blocks), lengths);
      this.postings.set(org.org_key, generation, term, blocks);
      return blocks;
    }
    const weighting = weigh(blocks);
    if (blocks.df <= WARM_SCORED_POSTINGS && blocks.scored?.w !== weighting.w) {
      keepScores(blocks, weighting, lengths);
      // Counted again: the entry is larger now.
      this.postings.set(org.org_key, generation, term, blocks);
    }
    if (maximaUnder(blocks, weighting) === null)
      blocks.maxima = computeBlockMaxima(blocks, weighting, lengths);
    return blocks;
  }

  /** The organization's document lengths in this snapshot (kept for its generation; a few organizations). */
  private lengthsOf(org: OrgRow): DocumentLengths {
    const kept = this.lengths.get(org.org_key);
    if (kept !== undefined && kept.generation === postedGeneration(org)) return kept.lengths;
    const lengths = readLengths(org.next_doc_no, this.statements.lengths.all(org.org_key));
    this.lengths.delete(org.org_key);
    if (this.lengths.size >= LENGTHS_KEPT) this.lengths.delete(this.lengths.keys().next().value as number);
    this.lengths.set(org.org_key, { generation: postedGeneration(org), lengths });
    return lengths;
  }

  /**
   * The best `q.limit` matches that pass the filters, looked up a growing slice at a time (rows not cached for
   * this generation in one statement per slice; the filters run in memory on the parsed fields).
   */
  private lookUp(org: OrgRow, matches: RankedMatches, q: NormalizedQuery): Found[] {
    const passes = fieldMatcher(q.filters, q.anyOf);
    const result: Found[] = [];
    for (let want = q.limit; result.length < q.limit; want *= LOOKUP_GROWTH) {
      const slice = matches.next(want);
      if (slice.length === 0) break;
      const rows = this.rowsFor(org, slice);
      for (let i = 0; i < slice.length && result.length < q.limit; i++) {
        const row = rows[i];
        // Built field by field: V8 turned `{ ...row, score }` into slow objects that survived into the old generation.
        if (row !== undefined && passes(row.fields))
          result.push({ id: row.id, title: row.title, fields: row.fields, score: slice[i].score });
      }
    }
    return result;
  }

  async get(id: string): Promise<SearchDocument | null> {
    const row = this.statements.getOne.get(id);
    return row === undefined ? null : toDocuments([row], this.bodySource)[0];
  }

  async *dump(): AsyncIterable<SearchDocument> {
    // Pages by id (keyset), so no read statement stays open between yields while the caller writes.
    let after = '';
    for (;;) {
      const rows = this.statements.dumpPage.all(after, DUMP_PAGE);
      for (const document of toDocuments(rows, this.bodySource)) yield document;
      if (rows.length < DUMP_PAGE) return;
      after = rows[rows.length - 1].id;
    }
  }

  async count(organizationId?: string): Promise<number> {
    const row =
      organizationId === undefined
        ? this.statements.countAll.get()
        : this.statements.countOrganization.get(organizationId);
    return row?.n ?? 0;
  }

  async reset(): Promise<void> {
    this.writer.dropPending();
    recreateSearchSchema(this.db, this.collapseField);
  }

  async ping(): Promise<void> {
    this.db.prepare('SELECT 1').get();
  }

  /** The connection is shared with the other embedded stores and closed by its owner, not here. */
  async close(): Promise<void> {
    if (this.db.open) this.flushDeferred();
    this.postings.clear();
    this.lengths.clear();
    this.rows.clear();
    this.memberLists.clear();
  }

  private async inBatches<T>(items: T[], write: (batch: T[]) => void): Promise<void> {
    for (let start = 0; start < items.length; start += WRITE_BATCH) {
      if (start > 0) await new Promise<void>((resolve) => setImmediate(resolve));
      write(items.slice(start, start + WRITE_BATCH));
    }
  }
}

/** Keeps `blocks`' scores under `weighting`, their bytes counted in place of any scores it kept before. */
function keepScores(blocks: TermBlocks, weighting: TermWeighting, lengths: DocumentLengths): void {
  if (blocks.scored !== null) blocks.bytes -= scoredBytes(blocks.scored);
  blocks.scored = scorePostings(blocks, weighting, lengths);
  blocks.bytes += scoredBytes(blocks.scored);
}

/** What a term's kept scores cost in the posting cache. */
function scoredBytes(scored: ScoredPostings): number {
  return scored.docs.byteLength + scored.scores.byteLength;
}

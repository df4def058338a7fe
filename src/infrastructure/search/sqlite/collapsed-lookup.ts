/**
 * A collapsed search's hits (SearchQuery.collapse) from a ranking of one organization's snapshot: the best match
 * of each of the best `limit` collapse values among the documents that pass the filters, each with its value's
 * members (its matching documents that pass, exactly scored, best first).
 *
 * Filters run on looked-up rows, after ranking. The ranking leaves out the documents known to fail: when every one
 * of its first `limit` matches passes, they are the answer (a value still represented by a failing document it
 * has not met yet ranks no lower than its best passing document would, so nothing is ranked above its place).
 * Otherwise every document of the failing matches' values is read and each that fails is left out at once (a
 * failing item's chunks usually all fail), and the ranking runs again, asking for more.
 */
import type { FilterValue, SearchMember } from '../search-index.port';
import type { OrgRow } from './document-statements';
import { fieldMatcher } from './field-matcher';
import type { MaxScoreRanker, RankedDoc } from './max-score';
import type { CachedRow } from './row-cache';
import type { NormalizedQuery } from './search-input';

/** Each next ranking of a collapsed search after a failing one asks for this many times more values. */
const GROWTH = 4;
/** The most values a ranking is asked for (then it grows no more, and repeats until its first ones pass). */
const MAX_VALUES = 10_000;

/** A collapse value's document as read for its members. */
export interface MemberRow {
  docNo: number;
  row: CachedRow;
}

/** What a collapsed lookup reads (in the search's read transaction). */
export interface CollapsedRows {
  /** The rows of `matches`, in order (undefined: not live). */
  rowsFor(org: OrgRow, matches: RankedDoc[]): Array<CachedRow | undefined>;
  /** Every live document of the collapse values `keys`. */
  memberRows(org: OrgRow, keys: number[]): MemberRow[];
}

/** A collapsed hit: its best document's row and score, and its members. */
export interface CollapsedHit extends CachedRow {
  score: number;
  members: SearchMember[];
}

interface Ranking {
  ranker: MaxScoreRanker;
  /** Each document's collapse value (-1: none). */
  keys: Float64Array;
  query: NormalizedQuery;
}

type Passes = (fields: Readonly<Record<string, FilterValue>>) => boolean;

/** The hits of a collapsed search (the query's `collapse` is set). */
export function lookUpCollapsed(read: CollapsedRows, org: OrgRow, ranking: Ranking): CollapsedHit[] {
  const { ranker, keys, query } = ranking;
  const passes = fieldMatcher(query.filters, query.anyOf);
  const excluded = new Set<number>();
  for (let want = query.limit; ; want = Math.min(want * GROWTH, MAX_VALUES)) {
    const slice = ranker.top(want, Infinity, -1, {
      keys,
      excluded,
      ...(query.collapse?.excluded === undefined ? {} : { excludedKeys: query.collapse.excluded }),
    });
    const rows = read.rowsFor(org, slice);
    const fails = (i: number) => {
      const row = rows[i];
      return row === undefined || !passes(row.fields);
    };
    const firstFailing = slice.findIndex((_, i) => fails(i));
    if (firstFailing === -1 || firstFailing >= query.limit) {
      const best = slice.slice(0, query.limit);
      return withMembers(read, org, ranking, best, rows as CachedRow[], passes);
    }
    const failing = slice.filter((_, i) => fails(i)).map((match) => match.docNo);
    for (const doc of failing) excluded.add(doc);
    const values = failing.map((doc) => keys[doc]).filter((key) => key >= 0);
    for (const member of read.memberRows(org, values)) {
      if (!passes(member.row.fields)) excluded.add(member.docNo);
    }
  }
}

/** The hits of `best` (every one passed the filters; `rows` theirs), each with its value's members. */
function withMembers(
  read: CollapsedRows,
  org: OrgRow,
  { ranker, keys, query }: Ranking,
  best: RankedDoc[],
  rows: CachedRow[],
  passes: Passes,
): CollapsedHit[] {
  const maxMembers = query.collapse?.maxMembers ?? 1;
  const own = (i: number): SearchMember[] => [
    { id: rows[i].id, score: best[i].score, fields: rows[i].fields },
  ];
  // One member: the hit's own document (its value's best that passes, scored exactly by the ranking), so no
  // other document of the value is read.
  if (maxMembers === 1) {
    return best.map((match, i) => {
      const { id, title, fields } = rows[i];
      return { id, title, fields, score: match.score, members: own(i) };
    });
  }
  // The hits themselves were scored exactly by the ranking and passed: not scored or matched again.
  const known = new Map<number, number>(best.map((match) => [match.docNo, match.score]));
  const byValue = membersByValue(
    read,
    org,
    ranker,
    keys,
    best.map((match) => keys[match.docNo]).filter((key) => key >= 0),
    passes,
    known,
  );
  return best.map((match, i) => {
    const value = keys[match.docNo];
    const listed = value >= 0 ? (byValue.get(value) ?? []) : [];
    const members = listed.length > 0 ? asMembers(listed, maxMembers) : own(i);
    return { id: rows[i].id, title: rows[i].title, fields: rows[i].fields, score: match.score, members };
  });
}

/**
 * The hits of a search restricted to collapse values (SearchQuery.collapse.values): for each value, its matching
 * documents that pass the filters, best first (the best is the hit); values with none are left out; best hit
 * first, `limit` of them. No ranking of the organization's other documents: only the values' documents are read
 * and scored.
 */
export function lookUpValues(
  read: CollapsedRows,
  org: OrgRow,
  { ranker, keys, query }: Ranking,
): CollapsedHit[] {
  const values = query.collapse?.values ?? [];
  const maxMembers = query.collapse?.maxMembers ?? 1;
  const passes = fieldMatcher(query.filters, query.anyOf);
  const byValue = membersByValue(read, org, ranker, keys, values, passes);
  return [...byValue.values()]
    .sort((a, b) => b[0].score - a[0].score || a[0].docNo - b[0].docNo)
    .slice(0, query.limit)
    .map((listed) => ({
      id: listed[0].id,
      title: listed[0].title,
      fields: listed[0].fields,
      score: listed[0].score,
      members: asMembers(listed, maxMembers),
    }));
}

type ScoredMember = SearchMember & { docNo: number; title: string };

/** The first `max` of a value's scored documents, as members. */
function asMembers(listed: ScoredMember[], max: number): SearchMember[] {
  return listed.slice(0, max).map(({ id, score, fields }) => ({ id, score, fields }));
}

/**
 * Each of `values`' documents that pass and match (score > 0: a document none of the terms is in is no member),
 * exactly scored, by value, best first (then by document number). Values without any are absent. `known`: documents
 * already scored exactly (by the ranking, every path of which gives the same score) that passed, with their scores:
 * taken as they are, so a value whose only document is its hit costs no scoring (most of SciFact's items).
 */
function membersByValue(
  read: CollapsedRows,
  org: OrgRow,
  ranker: MaxScoreRanker,
  keys: Float64Array,
  values: number[],
  passes: Passes,
  known: ReadonlyMap<number, number> = new Map(),
): Map<number, ScoredMember[]> {
  const byValue = new Map<number, ScoredMember[]>();
  const add = (member: ScoredMember): void => {
    const list = byValue.get(keys[member.docNo]);
    if (list === undefined) byValue.set(keys[member.docNo], [member]);
    else list.push(member);
  };
  const candidates = new Map<number, ScoredMember>();
  for (const { docNo, row } of read.memberRows(org, values)) {
    const score = known.get(docNo);
    const member = { docNo, id: row.id, title: row.title, score: score ?? 0, fields: row.fields };
    if (score !== undefined) add(member);
    else if (passes(row.fields)) candidates.set(docNo, member);
  }
  const docs = Int32Array.from(candidates.keys()).sort();
  const scores = ranker.scoreDocs(docs);
  docs.forEach((doc, i) => {
    if (scores[i] <= 0) return;
    const member = candidates.get(doc)!;
    member.score = scores[i];
    add(member);
  });
  for (const list of byValue.values()) list.sort((a, b) => b.score - a.score || a.docNo - b.docNo);
  return byValue;
}

/**
 * Each collapse value's live documents (SearchQuery.collapse: an item's chunks), by document number, kept between
 * queries for one generation of one organization at a time, as RowCache keeps their rows (row-cache.ts: every
 * write that changes any of an organization's documents changes its generation). Bounded in documents listed:
 * when full it starts over.
 */

import type { MemberRow } from './collapsed-lookup';
import type { CachedRow } from './row-cache';

/** Default bound: the chunks of some tens of thousands of items. */
export const MEMBER_CACHE_DOCUMENTS = 200_000;

export class MemberCache {
  private readonly organizations = new Map<number, { generation: string; lists: Map<number, number[]> }>();
  private size = 0;

  constructor(private readonly maxDocuments = MEMBER_CACHE_DOCUMENTS) {}

  /** The organization's lists for `generation` (emptied first when its generation moved). */
  listsOf(orgKey: number, generation: string): Map<number, number[]> {
    let entry = this.organizations.get(orgKey);
    if (entry === undefined || entry.generation !== generation) {
      for (const docs of entry?.lists.values() ?? []) this.size -= docs.length;
      entry = { generation, lists: new Map() };
      this.organizations.set(orgKey, entry);
    }
    return entry.lists;
  }

  /** Keeps a value's documents in `lists` (from listsOf), starting every organization over at the bound. */
  add(lists: Map<number, number[]>, value: number, docs: number[]): void {
    if (this.size + docs.length > this.maxDocuments) {
      for (const entry of this.organizations.values()) entry.lists.clear();
      this.size = 0;
    }
    this.size += docs.length - (lists.get(value)?.length ?? 0);
    lists.set(value, docs);
  }

  clear(): void {
    this.organizations.clear();
    this.size = 0;
  }
}

/**
 * The live documents of collapse values `keys`: from `cached` (a value's list and every row of it), the rest from
 * `read` (one statement for every value missing), which `keep` then adds to the caches.
 */
export function readMembers(
  keys: number[],
  cached: { rows: { get(docNo: number): CachedRow | undefined }; lists: Map<number, number[]> },
  read: (missing: number[]) => Array<MemberRow & { value: number }>,
  keep: (kept: { rows: MemberRow[]; lists: Map<number, number[]> }) => void,
): MemberRow[] {
  const members: MemberRow[] = [];
  const missing: number[] = [];
  // Plain loops, no array per value: a limit-100 search looks up 100 values here.
  const seen = new Set<number>();
  for (const key of keys) {
    if (seen.has(key)) continue;
    seen.add(key);
    const docs = cached.lists.get(key);
    const start = members.length;
    let complete = docs !== undefined;
    for (const docNo of docs ?? []) {
      const row = cached.rows.get(docNo);
      if (row === undefined) {
        complete = false;
        break;
      }
      members.push({ docNo, row });
    }
    if (!complete) {
      members.length = start;
      missing.push(key);
    }
  }
  if (missing.length === 0) return members;
  const lists = new Map<number, number[]>(missing.map((key) => [key, []]));
  const fetched = read(missing);
  for (const member of fetched) lists.get(member.value)?.push(member.docNo);
  // Kept after reading (an add can start a cache over).
  keep({ rows: fetched, lists });
  return members.concat(fetched.map(({ docNo, row }) => ({ docNo, row })));
}

import {
  SEARCH_COLLAPSE_FIELD,
  type SearchIndex,
  type SearchQuery,
} from '../../infrastructure/search/search-index.port';
import type { RankedMemoryItem } from './search-memory.query';

/** What every lexical search of one memory search asks the index (its limit and collapse aside). */
export type LexicalAsk = Omit<SearchQuery, 'limit' | 'collapse'>;

/**
 * The matching chunks of the results a hybrid search's lexical ranking found (it asked with one chunk each: fusion
 * needs the candidates' ranks only): read for those items alone, in one more search of the index restricted to
 * them (`collapse.values`) with the same filters, at most `perResult` each; the semantic chunks follow them as
 * fusion put them (`chunk_ids` holds the best lexical chunk, then the semantic ones). This second read is a second
 * snapshot: a result whose item it no longer finds (a write in between) keeps what it had.
 */
export async function fillResultMembers(
  index: SearchIndex,
  lexical: LexicalAsk,
  results: RankedMemoryItem[],
  perResult: number,
): Promise<void> {
  const found = results.filter((result) => result.method !== 'semantic');
  if (found.length === 0) return;
  const hits = await index.search({
    ...lexical,
    limit: found.length,
    collapse: {
      field: SEARCH_COLLAPSE_FIELD,
      max_members: perResult,
      values: found.map((result) => result.item.memory_item_id),
    },
  });
  const membersOf = new Map<number, number[]>();
  for (const hit of hits) {
    const members = hit.members ?? [{ id: hit.id, score: hit.score, fields: hit.fields }];
    membersOf.set(
      Number(hit.fields.memory_item_id),
      members.map((member) => Number(member.fields.memory_chunk_id)),
    );
  }
  for (const result of found) {
    const members = membersOf.get(result.item.memory_item_id);
    if (members === undefined) continue;
    const semantic = result.chunk_ids.slice(1).filter((id) => !members.includes(id));
    result.chunk_ids = [...members, ...semantic];
  }
}

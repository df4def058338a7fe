/** Elasticsearch's search hits as SearchHits (elastic-search-index.ts). */
import type { estypes } from '@elastic/elasticsearch';
import type { FilterValue, SearchHit, SearchMember } from '../search-index.port';

/** What a search reads of a stored document. */
interface HitSource {
  id: string;
  title: string;
  fields: Record<string, FilterValue>;
}

function toMember(hit: estypes.SearchHit<Partial<HitSource>>): SearchMember[] {
  const source = hit._source;
  if (source?.id === undefined || source.fields === undefined) return [];
  return [{ id: source.id, score: hit._score ?? 0, fields: source.fields }];
}

/**
 * A hit with its highlights (whitespace runs made one space, at most 3) and, when `collapsed`, its members: its
 * key's inner hits (itself alone when the engine sent none).
 */
export function toHit(hit: estypes.SearchHit<HitSource>, collapsed: boolean): SearchHit[] {
  const source = hit._source;
  if (source === undefined) return [];
  const highlights = (hit.highlight?.body ?? []).slice(0, 3).map((text) => text.replace(/\s+/g, ' ').trim());
  const found: SearchHit = {
    id: source.id,
    score: hit._score ?? 0,
    fields: source.fields,
    title: source.title,
    highlights,
  };
  if (collapsed) {
    const inner = (hit.inner_hits?.members?.hits.hits ?? []) as Array<estypes.SearchHit<Partial<HitSource>>>;
    found.members =
      inner.length > 0
        ? inner.flatMap(toMember)
        : [{ id: found.id, score: found.score, fields: found.fields }];
  }
  return [found];
}

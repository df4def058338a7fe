/** The public directory's parameters: values, defaults and bounds (spec §4.8, §8; docs/api.md "Public client pages"). */
export const DIRECTORY_SORTS = ['name', 'newest', 'updated'] as const;
export type DirectorySort = (typeof DIRECTORY_SORTS)[number];

export const SORT_LABELS: Readonly<Record<DirectorySort, string>> = {
  name: 'Name (A–Z)',
  newest: 'Newest',
  updated: 'Recently updated',
};

export const DEFAULT_SORT: DirectorySort = 'name';
export const DEFAULT_PER_PAGE = 12;
export const MIN_PER_PAGE = 1;
export const MAX_PER_PAGE = 24;
export const MAX_PAGE = 10_000;
/** Longest search text, in characters, after trimming. */
export const MAX_QUERY_LENGTH = 200;

/** A validated directory request. `q` is trimmed; '' means no filter. */
export interface DirectoryParams {
  q: string;
  sort: DirectorySort;
  per_page: number;
  page: number;
}

export const DEFAULT_PARAMS: DirectoryParams = {
  q: '',
  sort: DEFAULT_SORT,
  per_page: DEFAULT_PER_PAGE,
  page: 1,
};

/**
 * The query string of a directory page with `params` at `page`: only non-default values, in a stable order
 * (q, sort, per_page, page), so every page has one URL. Empty when everything is default.
 */
export function directoryQueryString(params: DirectoryParams, page: number): string {
  const search = new URLSearchParams();
  if (params.q !== '') search.set('q', params.q);
  if (params.sort !== DEFAULT_SORT) search.set('sort', params.sort);
  if (params.per_page !== DEFAULT_PER_PAGE) search.set('per_page', String(params.per_page));
  if (page > 1) search.set('page', String(page));
  const query = search.toString();
  return query === '' ? '' : `?${query}`;
}

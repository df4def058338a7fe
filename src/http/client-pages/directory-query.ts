import type { ErrorDetail } from '../../common/errors';
import {
  DEFAULT_PARAMS,
  DIRECTORY_SORTS,
  type DirectoryParams,
  type DirectorySort,
  MAX_PAGE,
  MAX_PER_PAGE,
  MAX_QUERY_LENGTH,
  MIN_PER_PAGE,
} from '../../queries/client-pages/directory-options';
import { validationError } from '../errors/error-response';

/**
 * Parses the directory's query string (API and HTML pages alike). Every problem is one 422 detail naming the
 * parameter: a repeated parameter, `sort` outside the three orders, `per_page` / `page` not a decimal integer in
 * range, `q` over MAX_QUERY_LENGTH characters (after trimming) or with control characters. Unknown parameters
 * (`utm_source`, `fbclid`, …) are ignored, so tracking links never break.
 */
export function parseDirectoryQuery(raw: unknown): DirectoryParams {
  const query = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>) : {};
  const details: ErrorDetail[] = [];
  const single = (name: string): string | undefined => {
    if (!Object.prototype.hasOwnProperty.call(query, name)) return undefined;
    const value = query[name];
    if (typeof value === 'string') return value;
    details.push({ field: name, message: 'must be given once' });
    return undefined;
  };
  const integer = (name: string, min: number, max: number, fallback: number): number => {
    const value = single(name);
    if (value === undefined) return fallback;
    if (/^\d{1,9}$/.test(value) && Number(value) >= min && Number(value) <= max) return Number(value);
    details.push({ field: name, message: `must be an integer from ${min} to ${max}` });
    return fallback;
  };

  const q = (single('q') ?? '').trim();
  if ([...q].length > MAX_QUERY_LENGTH || /[\p{Cc}\u2028\u2029]/u.test(q)) {
    details.push({
      field: 'q',
      message: `must be at most ${MAX_QUERY_LENGTH} characters without control characters`,
    });
  }
  const sortValue = single('sort');
  let sort: DirectorySort = DEFAULT_PARAMS.sort;
  if (sortValue !== undefined) {
    if ((DIRECTORY_SORTS as readonly string[]).includes(sortValue)) sort = sortValue as DirectorySort;
    else details.push({ field: 'sort', message: `must be one of ${DIRECTORY_SORTS.join(', ')}` });
  }
  const perPage = integer('per_page', MIN_PER_PAGE, MAX_PER_PAGE, DEFAULT_PARAMS.per_page);
  const page = integer('page', 1, MAX_PAGE, DEFAULT_PARAMS.page);
  if (details.length > 0) throw validationError(details);
  return { q, sort, per_page: perPage, page };
}

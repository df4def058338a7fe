/**
 * Pagination of the public directory. `links` (the shape the spec leaves open) is, in order: "Previous", the
 * page numbers of a window — always the first and the last page and two pages either side of the current one,
 * a gap of several pages as one "…" entry (a gap of exactly one page shows that page) — then "Next":
 * `1 … 4 5 [6] 7 8 … 20`. Each link is `{url, label, page, active}`; `url` and `page` are null for "…" and for
 * "Previous" on the first page / "Next" on the last page. A page past the last one has no active link, and its
 * "Previous" leads to the last page.
 */
export interface PaginationLink {
  url: string | null;
  label: string;
  page: number | null;
  active: boolean;
}

export interface Pagination {
  current_page: number;
  last_page: number;
  per_page: number;
  total: number;
  links: PaginationLink[];
}

export const PREVIOUS_LABEL = 'Previous';
export const NEXT_LABEL = 'Next';
export const GAP_LABEL = '…';
const WINDOW_RADIUS = 2;

/** The last page: at least 1, so an empty directory has one (empty) page. */
export function lastPage(total: number, perPage: number): number {
  return Math.max(1, Math.ceil(total / perPage));
}

/** Page numbers to show (null for a gap), for `current` in 1..∞ and `last` ≥ 1. */
export function pageWindow(current: number, last: number): Array<number | null> {
  const centre = Math.min(current, last);
  const shown = new Set<number>([1, last]);
  for (let page = centre - WINDOW_RADIUS; page <= centre + WINDOW_RADIUS; page++) {
    if (page >= 1 && page <= last) shown.add(page);
  }
  const window: Array<number | null> = [];
  let previous = 0;
  for (const page of [...shown].sort((a, b) => a - b)) {
    if (page - previous === 2) window.push(previous + 1);
    else if (page - previous > 2) window.push(null);
    window.push(page);
    previous = page;
  }
  return window;
}

export function pagination(
  current: number,
  perPage: number,
  total: number,
  urlFor: (page: number) => string,
): Pagination {
  const last = lastPage(total, perPage);
  const link = (label: string, page: number | null, active = false): PaginationLink => ({
    url: page === null ? null : urlFor(page),
    label,
    page,
    active,
  });
  const links: PaginationLink[] = [link(PREVIOUS_LABEL, current > 1 ? Math.min(current - 1, last) : null)];
  for (const page of pageWindow(current, last)) {
    links.push(page === null ? link(GAP_LABEL, null) : link(String(page), page, page === current));
  }
  links.push(link(NEXT_LABEL, current < last ? current + 1 : null));
  return { current_page: current, last_page: last, per_page: perPage, total, links };
}

/**
 * The human summary of a directory page (docs/api.md "Public client pages"):
 * - `Showing 1–12 of 40 clients`, `Showing 1 of 1 client`, `Showing 13–13 of 13 clients` (a range, always);
 * - with a search, ` matching "…"` is appended: `Showing 1–2 of 2 clients matching "dental"`;
 * - nothing at all: `No clients found`, or with a search `No clients match "…"`;
 * - a page past the last one: `No clients on page 9: 40 clients on 4 pages` (with ` matching "…"` after
 *   "clients" when searching).
 * Numbers use en-US digit grouping (1,234).
 */
const count = (n: number): string => n.toLocaleString('en-US');
const clients = (n: number): string => `${count(n)} ${n === 1 ? 'client' : 'clients'}`;

export function directorySummary(input: {
  q: string;
  page: number;
  perPage: number;
  total: number;
  shown: number;
  lastPage: number;
}): string {
  const { q, page, perPage, total, shown, lastPage } = input;
  const matching = q === '' ? '' : ` matching "${q}"`;
  if (total === 0) return q === '' ? 'No clients found' : `No clients match "${q}"`;
  if (shown === 0) {
    const pages = `${count(lastPage)} ${lastPage === 1 ? 'page' : 'pages'}`;
    return `No clients on page ${count(page)}: ${clients(total)}${matching} on ${pages}`;
  }
  const from = (page - 1) * perPage + 1;
  const to = from + shown - 1;
  if (total === 1) return `Showing 1 of 1 client${matching}`;
  return `Showing ${count(from)}–${count(to)} of ${clients(total)}${matching}`;
}

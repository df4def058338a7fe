import { pageWindow, pagination } from '../../../src/queries/client-pages/directory-pagination';
import { directorySummary } from '../../../src/queries/client-pages/directory-summary';

const labels = (current: number, last: number): string =>
  pageWindow(current, last)
    .map((page) => (page === null ? '…' : page === current ? `[${page}]` : String(page)))
    .join(' ');

describe('directory pagination', () => {
  it('shows the first, the last and two pages either side of the current one; bigger gaps become …', () => {
    expect(labels(6, 20)).toBe('1 … 4 5 [6] 7 8 … 20');
    expect(labels(1, 20)).toBe('[1] 2 3 … 20');
    expect(labels(20, 20)).toBe('1 … 18 19 [20]');
    expect(labels(4, 20)).toBe('1 2 3 [4] 5 6 … 20'); // a one-page gap shows the page, never "…"
    expect(labels(1, 1)).toBe('[1]');
    expect(labels(3, 5)).toBe('1 2 [3] 4 5');
  });

  it('a page past the last shows the window at the end, none active', () => {
    expect(labels(30, 20)).toBe('1 … 18 19 20');
  });

  it('links: Previous, numbers, Next with url/page null where there is nowhere to go', () => {
    const result = pagination(2, 10, 25, (page) => `u?page=${page}`);
    expect(result).toEqual({
      current_page: 2,
      last_page: 3,
      per_page: 10,
      total: 25,
      links: [
        { url: 'u?page=1', label: 'Previous', page: 1, active: false },
        { url: 'u?page=1', label: '1', page: 1, active: false },
        { url: 'u?page=2', label: '2', page: 2, active: true },
        { url: 'u?page=3', label: '3', page: 3, active: false },
        { url: 'u?page=3', label: 'Next', page: 3, active: false },
      ],
    });
    const first = pagination(1, 10, 0, (page) => `u${page}`);
    expect(first.last_page).toBe(1);
    expect(first.links[0]).toEqual({ url: null, label: 'Previous', page: null, active: false });
    expect(first.links[first.links.length - 1]).toEqual({
      url: null,
      label: 'Next',
      page: null,
      active: false,
    });
    const beyond = pagination(9, 10, 25, (page) => `u${page}`);
    expect(beyond.links[0]).toMatchObject({ label: 'Previous', page: 3 });
    expect(beyond.links.some((link) => link.active)).toBe(false);
    expect(beyond.links[beyond.links.length - 1]).toMatchObject({ label: 'Next', page: null });
  });

  it('summaries', () => {
    const base = { q: '', page: 1, perPage: 12, lastPage: 4 };
    expect(directorySummary({ ...base, total: 40, shown: 12 })).toBe('Showing 1–12 of 40 clients');
    expect(directorySummary({ ...base, page: 4, total: 40, shown: 4 })).toBe('Showing 37–40 of 40 clients');
    expect(directorySummary({ ...base, lastPage: 1, total: 1, shown: 1 })).toBe('Showing 1 of 1 client');
    expect(directorySummary({ ...base, q: 'dent', lastPage: 1, total: 2, shown: 2 })).toBe(
      'Showing 1–2 of 2 clients matching "dent"',
    );
    expect(directorySummary({ ...base, lastPage: 1, total: 0, shown: 0 })).toBe('No clients found');
    expect(directorySummary({ ...base, q: 'zzz', lastPage: 1, total: 0, shown: 0 })).toBe(
      'No clients match "zzz"',
    );
    expect(directorySummary({ ...base, page: 9, total: 40, shown: 0 })).toBe(
      'No clients on page 9: 40 clients on 4 pages',
    );
    expect(directorySummary({ ...base, page: 2, lastPage: 1, total: 1, shown: 0 })).toBe(
      'No clients on page 2: 1 client on 1 page',
    );
    expect(directorySummary({ ...base, page: 1, perPage: 24, lastPage: 53, total: 1250, shown: 24 })).toBe(
      'Showing 1–24 of 1,250 clients',
    );
  });
});

import { freshnessOf, STALE_AFTER_DAYS } from '../../../src/queries/memory/freshness';

const DAY = 24 * 60 * 60 * 1000;
const NOW = Date.parse('2026-11-28T12:00:00.000Z');
const iso = (ms: number): string => new Date(ms).toISOString();

function item(dates: {
  expires_at?: string | null;
  effective_at?: string | null;
  source_date?: string | null;
  revision_date?: string;
}) {
  return {
    expires_at: dates.expires_at ?? null,
    effective_at: dates.effective_at ?? null,
    source_date: dates.source_date ?? null,
    revision_date: dates.revision_date ?? iso(NOW - DAY),
  };
}

describe('freshnessOf', () => {
  it('is expired from expires_at on, whatever its other dates', () => {
    expect(freshnessOf(item({ expires_at: iso(NOW) }), NOW)).toBe('expired');
    expect(freshnessOf(item({ expires_at: iso(NOW - 1) }), NOW)).toBe('expired');
    expect(freshnessOf(item({ expires_at: iso(NOW + 1) }), NOW)).toBe('current');
  });

  it('is stale when its reference date (effective_at, else source_date, else revision_date) is older than a year', () => {
    const old = iso(NOW - STALE_AFTER_DAYS * DAY - 1);
    const recent = iso(NOW - STALE_AFTER_DAYS * DAY);
    expect(freshnessOf(item({ revision_date: old }), NOW)).toBe('stale');
    expect(freshnessOf(item({ revision_date: recent }), NOW)).toBe('current');
    expect(freshnessOf(item({ source_date: old, revision_date: recent }), NOW)).toBe('stale');
    expect(freshnessOf(item({ effective_at: recent, source_date: old, revision_date: old }), NOW)).toBe(
      'current',
    );
  });

  it('answers each item from its own dates when one item is asked about again, at another time', () => {
    const soon = item({ expires_at: iso(NOW + DAY) });
    const dated = item({ effective_at: iso(NOW - 10 * DAY) });
    expect(freshnessOf(soon, NOW)).toBe('current');
    expect(freshnessOf(dated, NOW)).toBe('current');
    expect(freshnessOf(soon, NOW + 2 * DAY)).toBe('expired');
    expect(freshnessOf(dated, NOW + 2 * DAY)).toBe('current');
    expect(freshnessOf(dated, NOW + STALE_AFTER_DAYS * DAY)).toBe('stale');
    // A copy with other dates is another item.
    expect(freshnessOf({ ...soon, expires_at: null }, NOW + 2 * DAY)).toBe('current');
  });

  it('treats a date it cannot parse as no date (never expired, never stale)', () => {
    expect(freshnessOf(item({ expires_at: 'not a date' }), NOW)).toBe('current');
    expect(freshnessOf(item({ revision_date: 'not a date' }), NOW)).toBe('current');
  });
});

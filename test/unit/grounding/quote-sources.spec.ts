import { quoteSourceProblem, topicOf, type QuoteSource } from '../../../src/grounding/quote-sources';

const source = (patch: Partial<QuoteSource> = {}): QuoteSource => ({
  reference_id: 'a',
  title: 'Price list 2025',
  source_date: '2025-03-01T00:00:00.000Z',
  authority: { role: 'authoritative', score: 1 },
  trace_verified: true,
  grounding_eligible: true,
  freshness: { status: 'current' },
  ...patch,
});

describe('sources per figure: each quote a figure comes from can ground the reply on its own', () => {
  it('an approved, eligible, current source of this organization stands', () => {
    expect(quoteSourceProblem(source(), [source()], true)).toBeNull();
  });

  it.each([
    ['not given', undefined, true, 'unknown'],
    [
      'not of this trace (another organization or revision)',
      source({ trace_verified: false }),
      true,
      'not_eligible',
    ],
    ['staff-only or a tool-private note', source({ grounding_eligible: false }), true, 'not_eligible'],
    ['expired', source({ freshness: { status: 'expired' } }), true, 'not_eligible'],
    [
      'supporting, under a strict policy',
      source({ authority: { role: 'supporting', score: 0.6 } }),
      true,
      'not_authoritative',
    ],
    [
      'unverified, under a strict policy',
      source({ authority: { role: 'unverified', score: 0.2 } }),
      true,
      'not_authoritative',
    ],
  ])('refuses a source %s', (_why, s, strict, problem) => {
    expect(quoteSourceProblem(s, s ? [s] : [], strict)).toBe(problem);
  });

  it('a supporting source stands under a lenient policy', () => {
    const s = source({ authority: { role: 'supporting', score: 0.6 } });
    expect(quoteSourceProblem(s, [s], false)).toBeNull();
  });

  it('a source superseded by a newer one on the same topic (same or higher authority) is refused', () => {
    const old = source({
      reference_id: 'old',
      title: 'Price list 2024',
      source_date: '2024-01-01T00:00:00.000Z',
    });
    const newer = source({ reference_id: 'new' });
    expect(quoteSourceProblem(old, [old, newer], true)).toBe('superseded');
    expect(quoteSourceProblem(newer, [old, newer], true)).toBeNull();
    const weaker = source({ reference_id: 'new', authority: { role: 'supporting', score: 0.6 } });
    expect(quoteSourceProblem(old, [old, weaker], true)).toBeNull();
    const other = source({ reference_id: 'new', title: 'Shipping 2025' });
    expect(quoteSourceProblem(old, [old, other], true)).toBeNull();
  });

  it('a topic is the title without years; a source dated less than a day later supersedes nothing', () => {
    expect(topicOf('Price list (2024)')).toBe(topicOf('Price list 2025'));
    expect(topicOf('Price list')).not.toBe(topicOf('Shipping'));
    expect(topicOf('Store 1')).not.toBe(topicOf('Store 2'));
    const first = source({
      reference_id: 'first',
      title: 'Price list',
      source_date: '2025-03-01T00:00:00.000Z',
    });
    const batch = source({
      reference_id: 'batch',
      title: 'Price list',
      source_date: '2025-03-01T09:00:00.000Z',
    });
    expect(quoteSourceProblem(first, [first, batch], true)).toBeNull();
  });
});

import type { ReviewOutput } from '../../../src/ai/reply-model-contract';
import { bindReview } from '../../../src/grounding/review-binding';

const DRAFT = [
  {
    text: 'We are open Monday to Friday from 9:00 to 17:00.',
    reference_ids: ['a', 'b'],
    quotes: [{ reference_id: 'b', text: 'Monday to Friday from 9:00 to 17:00' }],
  },
  {
    text: 'Refunds are accepted within 30 days.',
    reference_ids: ['c'],
    quotes: [{ reference_id: 'c', text: 'Refunds are accepted within 30 days' }],
  },
];
const GIVEN = new Set(['a', 'b', 'c', 'other']);
const honest = (): ReviewOutput => ({
  sufficient: true,
  answers_as_asked: true,
  claims: DRAFT.map((c) => ({ text: c.text, supported: true, reference_ids: [...c.reference_ids] })),
  conflicts: [],
  reason: 'ok',
});
const withClaims = (claims: ReviewOutput['claims']): ReviewOutput => ({ ...honest(), claims });

describe('the review is bound to the drafted claims one for one (invariant 3)', () => {
  it('binds an honest review, recording what confirmed each claim', () => {
    expect(bindReview(DRAFT, honest(), GIVEN)).toEqual({
      bound: true,
      verdicts: DRAFT.map((c) => ({ ...c, confirmed_by: c.reference_ids, supported: true })),
      conflicts: [],
    });
  });

  it('ignores case, spacing and closing punctuation, and accepts confirmation from fewer references', () => {
    const review = withClaims([
      { text: '  we are OPEN monday to friday from 9:00 to 17:00 ', supported: true, reference_ids: ['b'] },
      { text: 'Refunds are accepted within 30 days!', supported: true, reference_ids: ['c'] },
    ]);
    const binding = bindReview(DRAFT, review, GIVEN);
    expect(binding).toMatchObject({ bound: true });
    if (binding.bound) expect(binding.verdicts[0].confirmed_by).toEqual(['b']);
  });

  it.each([
    [
      'a different claim of the same count',
      [
        { ...honest().claims[0] },
        { text: 'Refunds are always free.', supported: true, reference_ids: ['c'] },
      ],
    ],
    ['a dropped claim', [honest().claims[0]]],
    [
      'a split claim',
      [
        honest().claims[0],
        { text: 'Refunds are accepted', supported: true, reference_ids: ['c'] },
        { text: 'within 30 days.', supported: true, reference_ids: ['c'] },
      ],
    ],
    ['reordered claims', [honest().claims[1], honest().claims[0]]],
    [
      'an extra claim',
      [...honest().claims, { text: 'Parking is free.', supported: true, reference_ids: ['a'] }],
    ],
    [
      'a reference the claim does not cite',
      [honest().claims[0], { ...honest().claims[1], reference_ids: ['a'] }],
    ],
    [
      "a confirmation from a cited reference that lacks the claim's quote (a subset without its figures)",
      [{ ...honest().claims[0], reference_ids: ['a'] }, honest().claims[1]],
    ],
    [
      'a reference that was never cited',
      [honest().claims[0], { ...honest().claims[1], reference_ids: ['bogus-ref'] }],
    ],
  ])('refuses %s', (_why, claims) => {
    expect(bindReview(DRAFT, withClaims(claims), GIVEN)).toMatchObject({ bound: false });
  });

  it('a claim confirmed from no reference is not supported', () => {
    const review = withClaims([{ ...honest().claims[0], reference_ids: [] }, honest().claims[1]]);
    const binding = bindReview(DRAFT, review, GIVEN);
    expect(binding.bound && binding.verdicts[0].supported).toBe(false);
  });

  it.each([
    [
      'an uncited reference as the contradicted one',
      { reference_id: 'other', conflicting_reference_id: 'a' },
    ],
    ['an unknown conflicting reference', { reference_id: 'a', conflicting_reference_id: 'nowhere' }],
    ['one reference twice', { reference_id: 'a', conflicting_reference_id: 'a' }],
  ])('refuses a conflict naming %s', (_why, conflict) => {
    const review = { ...honest(), conflicts: [{ ...conflict, description: 'x' }] };
    expect(bindReview(DRAFT, review, GIVEN)).toMatchObject({ bound: false });
  });
});

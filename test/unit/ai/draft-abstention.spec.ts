import { isAbstention, parseDraftOutput } from '../../../src/ai/reply-model-contract';

const CLAIMS = [
  {
    text: 'We open at 9:00.',
    reference_ids: ['mi1-r1-c1'],
    quotes: [{ reference_id: 'mi1-r1-c1', text: 'We open at 9:00.' }],
  },
];
const draft = (patch: Record<string, unknown>) => ({
  answer: 'We open at 9:00.',
  claims: CLAIMS,
  answer_mode: 'facts',
  answer_intent: 'answer_business_question',
  inferences: [],
  uncertainties: [],
  gaps: [],
  abstain: false,
  ...patch,
});
const ABSTAINED = {
  answer: '',
  claims: [],
  answer_mode: 'abstain',
  answer_intent: 'decline',
  inferences: [],
  uncertainties: [],
  abstain: true,
};

describe('abstention in any form is an abstention, never broken output', () => {
  it.each([
    ['abstain: true', draft({ abstain: true })],
    ['answer_mode abstain', draft({ answer_mode: 'abstain' })],
    ['answer_mode none', draft({ answer_mode: 'none' })],
    ['answer_intent decline', draft({ answer_intent: 'decline' })],
    ['no claims', draft({ claims: [] })],
    ['an empty answer', draft({ answer: '  ' })],
    ['abstain: true with off-schema fields', { abstain: true, answer: null, claims: 'none', extra: 1 }],
    ['answer_mode abstain alone', { answer_mode: 'abstain' }],
  ])('%s', (_why, value) => {
    expect(isAbstention(value)).toBe(true);
    expect(parseDraftOutput(value)).toEqual({ ...ABSTAINED, gaps: [] });
  });

  it('keeps well-formed gaps and nothing else', () => {
    expect(parseDraftOutput({ abstain: true, gaps: ['holiday hours'], answer: 'leak' })).toEqual({
      ...ABSTAINED,
      gaps: ['holiday hours'],
    });
    expect(parseDraftOutput({ abstain: true, gaps: [1, 2] }).gaps).toEqual([]);
  });

  it('a drafted answer is not an abstention; garbage stays malformed', () => {
    expect(isAbstention(draft({}))).toBe(false);
    expect(parseDraftOutput(draft({}))).toEqual(draft({}));
    expect(() => parseDraftOutput({ answer: 'x', claims: CLAIMS })).toThrow(/missing/);
    expect(() => parseDraftOutput('garbage')).toThrow(/expected an object/);
  });
});

import fc from 'fast-check';
import { extractFigures, unsupportedFigures } from '../../../src/grounding/claim-figures';

const EXCERPT = [
  'Opening hours: Monday to Friday 9:00–17:00, Saturday 9–13. Closed on public holidays and on 25 December.',
  'Refunds within 30 days of purchase; a restocking fee of 15% applies to opened items, at most €25.',
  'Write to help@acme.com or see https://www.acme.com/refunds. Shipping costs $4.99 and takes two weeks.',
  'The 2026 price list is valid from 2026-03-01. Call +1 555 123 4567.',
].join('\n');

describe('claim figures: what the cited evidence must state (invariant 3, Cairn-owned check)', () => {
  it.each([
    'We are open Monday to Friday from 9am to 5pm.',
    'On Wednesday we open at 9:00.',
    'On Saturday we close at 1 pm.',
    'On Saturday we are open 9–13.',
    'Refunds are accepted within thirty days.',
    'Refunds are accepted within a 30-day window.',
    'A 15 percent restocking fee applies to opened items.',
    'The fee is at most 25 euros.',
    'Shipping costs $4.99 and takes 2 weeks.',
    'Email help@ACME.com.',
    'Details are at https://www.acme.com/refunds/.',
    'The price list is valid from March 1, 2026.',
    'We are closed on December 25.',
    'Call +1 555 123 4567.',
    'You may return opened items.',
    'We answer every question.',
  ])('supported: %j', (claim) => {
    expect(unsupportedFigures(claim, [EXCERPT])).toEqual([]);
  });

  it.each([
    ['Refunds are 100% guaranteed.', 'percent'],
    ['Refunds are accepted within 60 days.', 'duration'],
    ['Refunds are accepted within 30 hours.', 'duration'],
    ['On Saturday we close at 3 pm.', 'time'],
    ['On Saturday we are open 9–15.', 'number'],
    ['Shipping costs $5.99.', 'amount'],
    ['Shipping costs 4.99 pounds.', 'amount'],
    ['A 20% restocking fee applies.', 'percent'],
    ['Email refunds@acme.com.', 'email'],
    ['Details are at https://www.acme.com/returns.', 'url'],
    ['The price list is valid from March 2, 2026.', 'date'],
    ['The price list is valid from March 1, 2027.', 'date'],
    ['We are open on Sunday.', 'weekday'],
    ['Prices change in April.', 'month'],
    ['Call +1 555 123 9999.', 'phone'],
    ['There are twelve stores.', 'number'],
  ])('unsupported: %j (%s)', (claim, kind) => {
    const missing = unsupportedFigures(claim, [EXCERPT]);
    expect(missing.map((f) => f.kind)).toContain(kind);
  });

  it('reads each span once (a time is not also two numbers)', () => {
    expect(extractFigures('Open 9:30 pm')).toEqual([
      { kind: 'time', key: String(21 * 60 + 30), text: '9:30 pm' },
    ]);
  });

  it('a number absent from the evidence is always caught, whatever the words around it', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 100_000, max: 999_999 }),
        fc.constantFrom('', ' days', '%', ' USD', ' people', ':'),
        fc.constantFrom('We have ', 'Exactly ', 'It is about '),
        (n, unit, prefix) => unsupportedFigures(`${prefix}${n}${unit} ok`, [EXCERPT]).length > 0,
      ),
    );
  });

  it('every figure of the evidence supports itself', () => {
    fc.assert(
      fc.property(fc.constantFrom(...EXCERPT.split(/(?<=\.)\s+/)), (sentence) => {
        return unsupportedFigures(sentence, [EXCERPT]).length === 0;
      }),
    );
  });
});

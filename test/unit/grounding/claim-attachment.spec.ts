import { attachmentProblem } from '../../../src/grounding/claim-attachment';

const BIKES =
  'At the Fjordvern Bike Desk on Bryggen, a city bike costs NOK 290 per day and an e-bike costs NOK 520 per day.';
const SHIPPING = 'Standard shipping costs $4.99 and takes 3–5 business days.';
const QUIZ = 'You can retake the final quiz up to 3 times.';
const CERTIFICATE = 'Certificates for the First Aid Abroad course are valid for 2 years.';
const CANCEL = 'Cancellation because of a change of mind or fear of travel is not covered.';

describe('what a claim figure or negation is said of (attachment, predicate polarity)', () => {
  it.each([
    ['A city bike costs NOK 290 per day.', [BIKES]],
    ['An e-bike costs NOK 520 per day, a city bike NOK 290 per day.', [BIKES]],
    // Both figures stated: their words may be shared in another order.
    ['Shipping takes 3–5 business days and costs $4.99.', [SHIPPING]],
    ['You can retake the final quiz up to 3 times.', [QUIZ, CERTIFICATE]],
    ['Certificates are valid for 2 years, and you can retake the quiz up to 3 times.', [QUIZ, CERTIFICATE]],
    // A word of a quote without figures goes with no figure: it is free.
    ['Express shipping costs $14.99.', ['Express shipping is our fastest option.', 'It costs $14.99.']],
    ['Cancellation because of a change of mind is not covered.', [CANCEL]],
    ["No, fear of travel isn't covered.", [CANCEL]],
    ['Neither a change of mind nor fear of travel is covered by the policy.', [CANCEL]],
  ])('supported: %j', (claim, quotes) => {
    expect(attachmentProblem(claim, quotes)).toBeNull();
  });

  it.each([
    ['At the Bike Desk on Bryggen, an e-bike costs NOK 290 per day.', [BIKES], 'attachment'],
    ['A city bike costs NOK 520 per day.', [BIKES], 'attachment'],
    ['You can retake the final quiz up to 2 times.', [QUIZ, CERTIFICATE], 'attachment'],
    [
      'Emergency medical treatment abroad is covered up to NOK 40,000 per person.',
      [
        'Fjordvern Travel Insurance covers emergency medical treatment abroad up to NOK 10,000,000 per person.',
        'The cancellation benefit is limited to NOK 40,000 per person per trip.',
      ],
      'attachment',
    ],
    [
      'Cancellation because of a change of mind is covered, but fear of travel is not covered.',
      [CANCEL],
      'polarity',
    ],
    ['A change of mind is covered.', [CANCEL], 'polarity'],
    ['Sunday opening is available.', ["Sunday opening isn't available."], 'polarity'],
  ])('refused: %j', (claim, quotes, problem) => {
    expect(attachmentProblem(claim, quotes)).toBe(problem);
  });
});

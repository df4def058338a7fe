/** The composer's quotes lie (the reviewer rubber-stamps): each claim must state verbatim spans of what it cites. */
import { draftOf, quote, refOf, reviewWith, type GroundingScenario } from './adversarial-model';
import {
  claimsOf,
  CONTACT,
  HOURS,
  Q_HOURS,
  Q_REFUND,
  Q_REFUND_CONTACT,
  REFUNDS,
  REVIEW_FAILED,
} from './scenario-topics';

export const QUOTE_LIES: GroundingScenario[] = [
  {
    id: 'q01',
    name: 'composer: a true claim without any quote',
    question: Q_REFUND,
    expect: 'refuse',
    codes: REVIEW_FAILED,
    draft: (i) => draftOf([{ ...quote(i, REFUNDS, 0), quotes: [] }]),
  },
  {
    id: 'q02',
    name: 'composer: a quote that is not in the cited source (a fabricated span)',
    question: Q_REFUND,
    expect: 'refuse',
    codes: REVIEW_FAILED,
    forbidden: ['90 days'],
    draft: (i) =>
      draftOf([
        {
          text: 'Refunds are accepted within 90 days of purchase.',
          reference_ids: [refOf(i, REFUNDS)],
          quotes: [
            { reference_id: refOf(i, REFUNDS), text: 'Refunds are accepted within 90 days of purchase' },
          ],
        },
      ]),
  },
  {
    id: 'q03',
    name: 'composer: a quote naming a reference the claim does not cite',
    question: Q_REFUND_CONTACT,
    expect: 'refuse',
    codes: ['selected_references_invalid'],
    draft: (i) => draftOf([{ ...quote(i, REFUNDS, 0), quotes: quote(i, CONTACT, 0).quotes }]),
  },
  {
    id: 'q04',
    name: 'composer: a quote of another source than the one it names',
    question: Q_HOURS,
    expect: 'refuse',
    codes: REVIEW_FAILED,
    draft: (i) =>
      draftOf([
        {
          ...quote(i, HOURS, 0),
          quotes: [{ reference_id: refOf(i, HOURS), text: quote(i, REFUNDS, 0).text }],
        },
      ]),
  },

  {
    id: 'q05',
    name: 'reviewer: confirms a claim only from a cited reference that lacks its quote',
    question: Q_REFUND_CONTACT,
    expect: 'refuse',
    codes: REVIEW_FAILED,
    draft: (i) =>
      draftOf([{ ...quote(i, REFUNDS, 0), reference_ids: [refOf(i, REFUNDS), refOf(i, CONTACT)] }]),
    review: (input) =>
      reviewWith(input, (review) => {
        const other = input.claims[0].reference_ids.find(
          (id) => id !== input.claims[0].quotes[0].reference_id,
        );
        claimsOf(review)[0].reference_ids = other === undefined ? [] : [other];
      }),
  },
];

/** The reviewer lies or fails; the composer is honest. Each must be refused with its code. */
import { reply } from '../model-server';
import { draftOf, quote, reviewWith, type GroundingScenario } from './adversarial-model';
import {
  HOURS,
  REFUNDS,
  CONTACT,
  Q_HOURS,
  Q_REFUND,
  Q_REFUND_CONTACT,
  Q_SATURDAY,
  REVIEW_FAILED,
  INSUFFICIENT,
  claimsOf,
  honestHours,
  honestRefund,
  twoRefundClaims,
} from './scenario-topics';

const swapFirstTwo = (review: unknown) => {
  const claims = claimsOf(review);
  [claims[0], claims[1]] = [claims[1], claims[0]];
};

export const REVIEWER_LIES: GroundingScenario[] = [
  {
    id: 'r01',
    name: 'reviewer re-words the claim (same count)',
    question: Q_REFUND,
    expect: 'refuse',
    codes: REVIEW_FAILED,
    draft: honestRefund,
    review: (i) =>
      reviewWith(i, (r) => void (r.claims[0].text = 'Refunds are accepted for as long as you like.')),
  },
  {
    id: 'r02',
    name: 'reviewer changes a figure in the confirmed claim',
    question: Q_HOURS,
    expect: 'refuse',
    codes: REVIEW_FAILED,
    draft: honestHours,
    review: (i) => reviewWith(i, (r) => void (r.claims[0].text = r.claims[0].text.replace('17:00', '19:00'))),
  },
  {
    id: 'r03',
    name: 'reviewer splits a claim in two',
    question: Q_REFUND,
    expect: 'refuse',
    codes: REVIEW_FAILED,
    draft: honestRefund,
    review: (i) =>
      reviewWith(i, (r) => {
        const [c] = r.claims;
        r.claims = [
          { ...c, text: 'Refunds are accepted within 30 days of purchase.' },
          { ...c, text: 'A receipt is needed.' },
        ];
      }),
  },
  {
    id: 'r04',
    name: 'reviewer drops one of two claims',
    question: Q_REFUND,
    expect: 'refuse',
    codes: REVIEW_FAILED,
    draft: twoRefundClaims,
    review: (i) => reviewWith(i, (r) => void r.claims.pop()),
  },
  {
    id: 'r05',
    name: 'reviewer cites a reference that was never cited ("bogus-ref")',
    question: Q_REFUND,
    expect: 'refuse',
    codes: REVIEW_FAILED,
    draft: honestRefund,
    review: (i) => reviewWith(i, (r) => void (r.claims[0].reference_ids = ['bogus-ref'])),
  },
  {
    id: 'r06',
    name: 'reviewer confirms a claim from a reference another claim cites',
    question: Q_REFUND_CONTACT,
    expect: 'refuse',
    codes: REVIEW_FAILED,
    draft: (i) => draftOf([quote(i, REFUNDS, 0), quote(i, CONTACT, 0)]),
    review: (i) => reviewWith(i, (r) => void (r.claims[0].reference_ids = [...r.claims[1].reference_ids])),
  },
  {
    id: 'r07',
    name: 'reviewer reorders the claims',
    question: Q_REFUND,
    expect: 'refuse',
    codes: REVIEW_FAILED,
    draft: twoRefundClaims,
    review: (i) => reviewWith(i, swapFirstTwo),
  },
  {
    id: 'r08',
    name: 'reviewer adds a claim of its own',
    question: Q_REFUND,
    expect: 'refuse',
    codes: REVIEW_FAILED,
    draft: honestRefund,
    review: (i) =>
      reviewWith(i, (r) => void r.claims.push({ ...r.claims[0], text: 'Refunds are also paid in cash.' })),
  },
  {
    id: 'r09',
    name: 'reviewer returns no claims but says sufficient',
    question: Q_REFUND,
    expect: 'refuse',
    codes: REVIEW_FAILED,
    draft: honestRefund,
    review: (i) => reviewWith(i, (r) => void (r.claims = [])),
  },
  {
    id: 'r10',
    name: 'reviewer says supported but confirms from no reference',
    question: Q_REFUND,
    expect: 'refuse',
    codes: REVIEW_FAILED,
    draft: honestRefund,
    review: (i) => reviewWith(i, (r) => void (r.claims[0].reference_ids = [])),
  },
  {
    id: 'r11',
    name: 'reviewer reports a conflict with a reference it was never given',
    question: Q_REFUND,
    expect: 'refuse',
    codes: REVIEW_FAILED,
    draft: honestRefund,
    review: (i) =>
      reviewWith(i, (r) => {
        r.conflicts = [
          {
            reference_id: i.claims[0].reference_ids[0],
            conflicting_reference_id: 'mi999-r1-c1',
            description: 'x',
          },
        ];
      }),
  },
  {
    id: 'r12',
    name: 'reviewer finds the claim unsupported',
    question: Q_REFUND,
    expect: 'refuse',
    codes: REVIEW_FAILED,
    draft: honestRefund,
    review: (i) => reviewWith(i, (r) => void (r.claims[0].supported = false)),
  },
  {
    id: 'r13',
    name: 'reviewer finds the evidence insufficient',
    question: Q_REFUND,
    expect: 'refuse',
    codes: INSUFFICIENT,
    draft: honestRefund,
    review: (i) => reviewWith(i, (r) => void (r.sufficient = false)),
  },
  {
    id: 'r14',
    name: 'reviewer finds the question not answered as asked',
    question: Q_REFUND,
    expect: 'refuse',
    codes: INSUFFICIENT,
    draft: honestRefund,
    review: (i) => reviewWith(i, (r) => void (r.answers_as_asked = false)),
  },
  {
    id: 'r15',
    name: 'reviewer answers garbage (transient, like composer garbage)',
    question: Q_REFUND,
    expect: 'refuse',
    codes: ['semantic_review_unavailable'],
    draft: honestRefund,
    review: () => reply.raw('{"verdict": "looks good"'),
    checkStatus: (s) => (s.retryable ? null : 'garbage from the reviewer must be retryable'),
  },
  {
    id: 'r16',
    name: 'reviewer leaves out a field',
    question: Q_REFUND,
    expect: 'refuse',
    codes: ['semantic_review_unavailable'],
    draft: honestRefund,
    review: (i) => reviewWith(i, (r) => ({ ...r, conflicts: undefined })),
  },
  {
    id: 'r17',
    name: 'reviewer provider 503 with Retry-After: 20',
    question: Q_REFUND,
    expect: 'refuse',
    codes: ['ai_temporarily_unavailable'],
    draft: honestRefund,
    review: () => reply.status(503, '20'),
    checkStatus: (s) => (s.retry_after_ms === 20_000 ? null : `retry_after_ms ${s.retry_after_ms}`),
  },
  {
    id: 'r18',
    name: 'reviewer never answers (timeout)',
    question: Q_REFUND,
    expect: 'refuse',
    codes: ['semantic_review_unavailable'],
    draft: honestRefund,
    review: () => reply.hang(),
  },
  {
    id: 'r19',
    name: 'two approved sources disagree (Saturday 9–13 vs 9–15): abstain',
    question: Q_SATURDAY,
    expect: 'refuse',
    codes: INSUFFICIENT,
    forbidden: ['13:00', '15:00'],
    draft: (i) => draftOf([quote(i, HOURS, 1)]),
    review: (i) =>
      reviewWith(i, (r) => {
        const branch = i.other_evidence.find((e) => e.excerpt.includes('Riverside'));
        r.conflicts = branch
          ? [
              {
                reference_id: i.claims[0].reference_ids[0],
                conflicting_reference_id: branch.reference_id,
                description: '13:00 vs 15:00',
              },
            ]
          : [];
      }),
  },
  {
    id: 'r20',
    name: 'reviewer confirms with a reason but marks the second of two claims unsupported',
    question: Q_REFUND,
    expect: 'refuse',
    codes: REVIEW_FAILED,
    draft: twoRefundClaims,
    review: (i) => reviewWith(i, (r) => void (r.claims[1].supported = false)),
  },
];

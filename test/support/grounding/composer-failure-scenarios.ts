/** The composer fails or abstains: garbage, truncation, provider errors, abstention in any form, unoffered tools. */
import { reply } from '../model-server';
import { draftOf, quote, type GroundingScenario } from './adversarial-model';
import { INSUFFICIENT, Q_REFUND, REFUNDS } from './scenario-topics';

export const COMPOSER_FAILURES: GroundingScenario[] = [
  {
    id: 'w27',
    name: 'composer: abstains (abstain: true)',
    question: Q_REFUND,
    expect: 'refuse',
    codes: INSUFFICIENT,
    draft: () => reply.abstain(),
    checkStatus: (s) => (s.retryable ? 'abstention must not be retryable' : null),
  },
  {
    id: 'w28',
    name: 'composer: abstains as answer_mode "abstain" with off-schema fields',
    question: Q_REFUND,
    expect: 'refuse',
    codes: INSUFFICIENT,
    draft: () => reply.json({ answer_mode: 'abstain', answer: null, claims: 'none', why: 'not in memory' }),
  },
  {
    id: 'w29',
    name: 'composer: declines (answer_intent "decline") yet writes claims',
    question: Q_REFUND,
    expect: 'refuse',
    codes: INSUFFICIENT,
    draft: (i) => draftOf([quote(i, REFUNDS, 0)], { answer_intent: 'decline' }),
  },
  {
    id: 'w30',
    name: 'composer: answers garbage',
    question: Q_REFUND,
    expect: 'refuse',
    codes: ['assistant_answer_incomplete'],
    draft: () => reply.raw('Sure! Refunds are always fine.'),
  },
  {
    id: 'w31',
    name: 'composer: truncated output',
    question: Q_REFUND,
    expect: 'refuse',
    codes: ['assistant_answer_incomplete'],
    draft: () => reply.raw('{"answer": "Refunds are', { finishReason: 'length' }),
  },
  {
    id: 'w32',
    name: 'composer: provider 429 with Retry-After: 120 (bounded to 60 s)',
    question: Q_REFUND,
    expect: 'refuse',
    codes: ['ai_temporarily_unavailable'],
    draft: () => reply.status(429, '120'),
    checkStatus: (s) => (s.retry_after_ms === 60_000 ? null : `retry_after_ms ${s.retry_after_ms}`),
  },
  {
    id: 'w33',
    name: 'composer: calls a tool it was not offered',
    question: Q_REFUND,
    expect: 'refuse',
    draft: () => reply.toolCalls([{ name: 'issue_refund', arguments: { amount: 100 } }]),
  },
];

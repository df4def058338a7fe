import { createHash } from 'node:crypto';
import { canonicalize } from 'json-canonicalize';
import {
  feedbackFingerprint,
  legacyFeedbackFingerprint,
  feedbackIdentity,
  resolveFeedback,
  type FeedbackChoice,
  type FeedbackContent,
} from '../../../src/commands/replies/feedback-rules';

function failure(choice: FeedbackChoice): { code?: string; status?: number; fields: unknown[] } {
  try {
    resolveFeedback(choice);
  } catch (error) {
    const e = error as { code?: string; status?: number; details?: Array<{ field?: string }> };
    return { code: e.code, status: e.status, fields: (e.details ?? []).map((d) => d.field) };
  }
  throw new Error('expected a rejection');
}

describe('resolveFeedback (spec §4.7 rules 1-2)', () => {
  it('maps a rating alone (older clients)', () => {
    expect(resolveFeedback({ rating: 'up' })).toEqual({ outcome: 'accepted', rating: 'up' });
    expect(resolveFeedback({ rating: 'down', suggested_answer: 'We open at 9.' })).toEqual({
      outcome: 'corrected',
      rating: 'down',
    });
    expect(resolveFeedback({ rating: 'down' })).toEqual({ outcome: 'rejected', rating: 'down' });
    expect(resolveFeedback({ rating: 'down', suggested_answer: null })).toEqual({
      outcome: 'rejected',
      rating: 'down',
    });
  });

  it('a blank suggested_answer is not a useful one: down stays rejected', () => {
    expect(resolveFeedback({ rating: 'down', suggested_answer: '' })).toEqual({
      outcome: 'rejected',
      rating: 'down',
    });
    expect(resolveFeedback({ rating: 'down', suggested_answer: ' \n\t ' })).toEqual({
      outcome: 'rejected',
      rating: 'down',
    });
  });

  it('rating none clears the outcome (even with a suggested answer)', () => {
    expect(resolveFeedback({ rating: 'none' })).toEqual({ outcome: null, rating: 'none' });
    expect(resolveFeedback({ rating: 'none', suggested_answer: 'x' })).toEqual({
      outcome: null,
      rating: 'none',
    });
  });

  it('derives the rating from an outcome alone', () => {
    expect(resolveFeedback({ outcome: 'accepted' })).toEqual({ outcome: 'accepted', rating: 'up' });
    expect(resolveFeedback({ outcome: 'rejected' })).toEqual({ outcome: 'rejected', rating: 'down' });
    expect(resolveFeedback({ outcome: 'corrected', suggested_answer: 'We open at 9.' })).toEqual({
      outcome: 'corrected',
      rating: 'down',
    });
  });

  it('accepts an outcome and rating that agree, keeping the explicit outcome', () => {
    expect(resolveFeedback({ outcome: 'accepted', rating: 'up' })).toEqual({
      outcome: 'accepted',
      rating: 'up',
    });
    expect(resolveFeedback({ outcome: 'corrected', rating: 'down', suggested_answer: 'a' })).toEqual({
      outcome: 'corrected',
      rating: 'down',
    });
    // An explicit `rejected` stays rejected even with a suggested answer.
    expect(resolveFeedback({ outcome: 'rejected', rating: 'down', suggested_answer: 'a' })).toEqual({
      outcome: 'rejected',
      rating: 'down',
    });
  });

  it.each([
    ['accepted', 'down'],
    ['accepted', 'none'],
    ['corrected', 'up'],
    ['corrected', 'none'],
    ['rejected', 'up'],
    ['rejected', 'none'],
  ] as const)('refuses outcome %s with rating %s (422 naming both fields)', (outcome, rating) => {
    expect(failure({ outcome, rating, suggested_answer: 'a' })).toEqual({
      code: 'validation_failed',
      status: 422,
      fields: ['outcome', 'rating'],
    });
  });

  it('refuses a request with neither outcome nor rating', () => {
    expect(failure({})).toEqual({ code: 'validation_failed', status: 422, fields: ['outcome', 'rating'] });
    expect(failure({ outcome: null, rating: null, suggested_answer: 'a' }).fields).toEqual([
      'outcome',
      'rating',
    ]);
  });

  it('corrected requires a non-blank suggested_answer', () => {
    for (const suggested_answer of [undefined, null, '', '   ']) {
      expect(failure({ outcome: 'corrected', suggested_answer })).toEqual({
        code: 'validation_failed',
        status: 422,
        fields: ['suggested_answer'],
      });
      expect(failure({ outcome: 'corrected', rating: 'down', suggested_answer }).fields).toEqual([
        'suggested_answer',
      ]);
    }
  });
});

describe('feedbackIdentity (spec §4.7 rule 3)', () => {
  const base = { organization_id: 1, connector_id: 2, message_id: 3 };
  const digestOf = (tuple: object) => createHash('sha256').update(canonicalize(tuple)).digest('hex');

  it('hashes the canonical (organization, connector, message, key kind, key) tuple', () => {
    expect(feedbackIdentity({ ...base, external_feedback_id: 'fb-1' })).toEqual({
      key_kind: 'external_feedback_id',
      key: 'fb-1',
      digest: digestOf({ ...base, key_kind: 'external_feedback_id', key: 'fb-1' }),
    });
    expect(feedbackIdentity({ ...base, idempotency_key: 'k-1' })).toEqual({
      key_kind: 'idempotency_key',
      key: 'k-1',
      digest: digestOf({ ...base, key_kind: 'idempotency_key', key: 'k-1' }),
    });
  });

  it('external_feedback_id takes precedence over idempotency_key; an empty string counts as absent', () => {
    expect(feedbackIdentity({ ...base, external_feedback_id: 'fb-1', idempotency_key: 'k-1' }).key_kind).toBe(
      'external_feedback_id',
    );
    expect(feedbackIdentity({ ...base, external_feedback_id: '', idempotency_key: 'k-1' }).key_kind).toBe(
      'idempotency_key',
    );
  });

  it('is scoped: another organization, connector, message or key kind is another identity', () => {
    const one = feedbackIdentity({ ...base, external_feedback_id: 'same' }).digest;
    expect(feedbackIdentity({ ...base, organization_id: 9, external_feedback_id: 'same' }).digest).not.toBe(
      one,
    );
    expect(feedbackIdentity({ ...base, connector_id: 9, external_feedback_id: 'same' }).digest).not.toBe(one);
    expect(feedbackIdentity({ ...base, message_id: 9, external_feedback_id: 'same' }).digest).not.toBe(one);
    expect(feedbackIdentity({ ...base, idempotency_key: 'same' }).digest).not.toBe(one);
  });

  it('refuses a request without a retry identity (422 naming both keys)', () => {
    for (const keys of [{}, { external_feedback_id: null, idempotency_key: null }, { idempotency_key: '' }]) {
      let caught: unknown;
      try {
        feedbackIdentity({ ...base, ...keys });
      } catch (error) {
        caught = error;
      }
      expect(caught).toMatchObject({
        status: 422,
        code: 'validation_failed',
        details: [{ field: 'external_feedback_id' }, { field: 'idempotency_key' }],
      });
    }
  });
});

describe('feedbackFingerprint', () => {
  const content: FeedbackContent = {
    outcome: 'corrected',
    rating: 'down',
    feedback_kind: 'answer_correction',
    feedback_issue: 'not_factually_correct',
    suggested_answer: 'We open at 9.',
    note: null,
  };

  it('is stable for the same content and changes with any field', () => {
    const fp = feedbackFingerprint(content);
    expect(fp).toMatch(/^[0-9a-f]{64}$/);
    expect(feedbackFingerprint({ ...content })).toBe(fp);
    for (const change of [
      { outcome: 'rejected' as const },
      { feedback_kind: 'other' },
      { feedback_issue: null },
      { suggested_answer: 'We open at 10.' },
      { note: 'n' },
    ]) {
      expect(feedbackFingerprint({ ...content, ...change })).not.toBe(fp);
    }
  });

  it('does not cover the retry keys (they say which feedback, not what it says); the legacy one did', () => {
    const keys = { external_feedback_id: 'fb-1', idempotency_key: 'k' };
    expect(feedbackFingerprint({ ...content, ...keys } as FeedbackContent)).toBe(
      feedbackFingerprint(content),
    );
    expect(legacyFeedbackFingerprint({ ...content, ...keys })).not.toBe(
      legacyFeedbackFingerprint({ ...content, ...keys, idempotency_key: null }),
    );
    expect(legacyFeedbackFingerprint({ ...content, ...keys })).not.toBe(feedbackFingerprint(content));
  });

  it('covers the resolved choice: {rating: up} and {outcome: accepted} are the same submission', () => {
    const rest = {
      feedback_kind: null,
      feedback_issue: null,
      suggested_answer: null,
      note: null,
    };
    expect(feedbackFingerprint({ ...rest, ...resolveFeedback({ rating: 'up' }) })).toBe(
      feedbackFingerprint({ ...rest, ...resolveFeedback({ outcome: 'accepted' }) }),
    );
  });
});

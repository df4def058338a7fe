import {
  quotaPeriod,
  quotaUsed,
  replyQuotaDecider,
  type ReplyQuotaCommand,
} from '../../../src/commands/replies/reply-quota.decider';
import { fold } from '../../../src/commands/shared/decider';
import type { ReplyQuotaEvent } from '../../../src/events/replies/reply-quota.events';
import { givenDecider } from '../../support/decider-spec';

const given = givenDecider(replyQuotaDecider);
const NOW = Date.parse('2026-11-21T10:00:00.000Z');
const at = new Date(NOW).toISOString();
const ref = (reply_id: number, attempt = 1) => ({ organization_id: 1, period: '2026-11', reply_id, attempt });
const slot = (reply_id: number, attempt = 1) => ({
  organization_id: 1,
  period: '2026-11',
  reply_id,
  slot: `${reply_id}:${attempt}`,
});

const reserve = (reply_id: number, monthly_limit: number, attempt = 1): ReplyQuotaCommand => ({
  type: 'Reserve',
  monthly_limit,
  now_ms: NOW,
  ...ref(reply_id, attempt),
});
const reserved = (reply_id: number, monthly_limit: number, attempt = 1): ReplyQuotaEvent => ({
  type: 'ReplyQuotaReserved',
  data: { ...slot(reply_id, attempt), monthly_limit, reserved_at: at },
});
const consumed = (reply_id: number, attempt = 1): ReplyQuotaEvent => ({
  type: 'ReplyQuotaConsumed',
  data: { ...slot(reply_id, attempt), consumed_at: at },
});
const released = (reply_id: number, attempt = 1, reason = 'semantic_review_failed'): ReplyQuotaEvent => ({
  type: 'ReplyQuotaReleased',
  data: { ...slot(reply_id, attempt), reason, released_at: at },
});

describe('monthly reply quota decider', () => {
  it('reserves a slot while the month has room', () => {
    given([reserved(1, 2), consumed(1)])
      .when(reserve(2, 2))
      .then([reserved(2, 2)]);
  });

  it('refuses (records nothing) once completed plus in-flight replies reach the limit', () => {
    given([reserved(1, 2), consumed(1), reserved(2, 2)])
      .when(reserve(3, 2))
      .then([]);
    given([consumed(1), consumed(2)])
      .when(reserve(3, 2))
      .then([]);
  });

  it('a limit of 0 refuses every reply', () => {
    given([]).when(reserve(1, 0)).then([]);
  });

  it('a released slot frees room; a consumed one does not', () => {
    given([reserved(1, 1), released(1)])
      .when(reserve(2, 1))
      .then([reserved(2, 1)]);
    given([reserved(1, 1), consumed(1)])
      .when(reserve(2, 1))
      .then([]);
  });

  it('reserving an open slot again is a no-op (a retried append decides again)', () => {
    given([reserved(1, 5)])
      .when(reserve(1, 5))
      .then([]);
  });

  it('a reclaim is a new attempt: it reserves its own slot, and releasing the crashed attempt frees that one', () => {
    const state = fold(replyQuotaDecider, [reserved(1, 5), reserved(1, 5, 2)]);
    expect(quotaUsed(state)).toBe(2);
    given([reserved(1, 5), reserved(1, 5, 2)])
      .when({ type: 'Release', reason: 'lease_expired', now_ms: NOW, ...ref(1, 1) })
      .then([released(1, 1, 'lease_expired')]);
  });

  it('releasing a slot that is not open records nothing', () => {
    given([])
      .when({ type: 'Release', reason: 'x', now_ms: NOW, ...ref(1) })
      .then([]);
    given([reserved(1, 5), consumed(1)])
      .when({ type: 'Release', reason: 'x', now_ms: NOW, ...ref(1) })
      .then([]);
  });

  it('a reply completed without a reservation (no limit set) still counts', () => {
    given([])
      .when({ type: 'Consume', now_ms: NOW, ...ref(7) })
      .then([consumed(7)]);
    expect(quotaUsed(fold(replyQuotaDecider, [consumed(7), reserved(8, 9)]))).toBe(2);
  });

  it('the period is the UTC calendar month', () => {
    expect(quotaPeriod(Date.parse('2026-11-30T23:59:59.999Z'))).toBe('2026-11');
    expect(quotaPeriod(Date.parse('2026-12-01T00:00:00.000Z'))).toBe('2026-12');
  });

  it('evolve never mutates the state it is given (folded states are cached)', () => {
    const before = fold(replyQuotaDecider, [reserved(1, 5)]);
    replyQuotaDecider.evolve(before, consumed(1));
    replyQuotaDecider.evolve(before, reserved(2, 5));
    expect([...before.open]).toEqual(['1:1']);
    expect(before.consumed).toBe(0);
  });
});

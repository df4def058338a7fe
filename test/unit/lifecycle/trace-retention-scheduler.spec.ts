import { Clock } from '../../../src/common/clock';
import type { ReadStore } from '../../../src/infrastructure/read-store/read-store.port';
import type { TraceRetention } from '../../../src/lifecycle/trace-retention';
import { TraceRetentionScheduler } from '../../../src/lifecycle/trace-retention.scheduler';

class FixedClock extends Clock {
  now(): Date {
    return new Date('2026-11-26T12:00:00.000Z');
  }
}

function scheduler(days: number, leaseHeld: boolean) {
  const pruned: Date[] = [];
  const released: string[] = [];
  const retention = {
    supported: () => true,
    prune: async (before: Date) => {
      pruned.push(before);
      return { recorded_before: before.toISOString(), pruned: 0, retention_events: 0 };
    },
  } as unknown as TraceRetention;
  const readStore = {
    acquireLease: async () => leaseHeld,
    releaseLease: async (name: string) => void released.push(name),
  } as unknown as ReadStore;
  const subject = new TraceRetentionScheduler(retention, new FixedClock(), readStore, {
    traceRetentionDays: days,
  });
  return { subject, pruned, released };
}

describe('the server’s recall-trace retention run', () => {
  it('prunes what is older than the retention, under the lease, and releases it', async () => {
    const { subject, pruned, released } = scheduler(30, true);
    await subject.runOnce();
    expect(pruned).toEqual([new Date('2026-10-27T12:00:00.000Z')]);
    expect(released).toEqual(['trace-retention']);
  });

  it('does nothing while another process holds the lease', async () => {
    const { subject, pruned } = scheduler(30, false);
    await subject.runOnce();
    expect(pruned).toEqual([]);
  });

  it('schedules nothing when retention is 0 (keep every trace)', () => {
    jest.useFakeTimers();
    try {
      const { subject, pruned } = scheduler(0, true);
      subject.onApplicationBootstrap();
      expect(jest.getTimerCount()).toBe(0);
      const kept = scheduler(30, true);
      kept.subject.onApplicationBootstrap();
      expect(jest.getTimerCount()).toBe(1);
      kept.subject.onModuleDestroy();
      expect(jest.getTimerCount()).toBe(0);
      expect(pruned).toEqual([]);
    } finally {
      jest.useRealTimers();
    }
  });
});

/**
 * The connector rate limiter's leases: a process claims `leaseSize(limit)` requests from the shared count at a time
 * instead of one store write per request, and all processes together never accept more than the limit.
 */
import fc from 'fast-check';
import type { CairnConfig } from '../../../src/config/config';
import { ConnectorRateLimiter, leaseSize } from '../../../src/http/auth/connector-rate-limiter';
import type { ReadStore } from '../../../src/infrastructure/read-store/read-store.port';
import { ManualClock } from '../../support/client-page-fixtures';

/** The shared count with the read store's `hitCounter` semantics (one record per name), counting store calls. */
class SharedCount {
  calls = 0;
  private readonly counters = new Map<string, { window: number; count: number }>();
  hitCounter = async (name: string, windowStart: number, hits = 1): Promise<number> => {
    this.calls++;
    const stored = this.counters.get(name);
    const next =
      stored === undefined || windowStart > stored.window
        ? { window: windowStart, count: hits }
        : { window: stored.window, count: stored.count + hits };
    this.counters.set(name, next);
    return next.count;
  };
}

function limiter(limit: number, shared: SharedCount, clock: ManualClock): ConnectorRateLimiter {
  const config = { connectorRateLimits: { search: limit, writes: limit, replies: limit } } as CairnConfig;
  return new ConnectorRateLimiter(config, shared as unknown as ReadStore, clock);
}

async function accepted(process: ConnectorRateLimiter, token = 'tok'): Promise<boolean> {
  try {
    await process.hit(token, 'search');
    return true;
  } catch {
    return false;
  }
}

describe('connector rate limiter leases', () => {
  it('claims a fiftieth of the budget at a time, 1 to 100 requests', () => {
    expect([1, 4, 49, 50, 120, 600, 4_999, 5_000, 10_000_000].map(leaseSize)).toEqual([
      1, 1, 1, 1, 2, 12, 99, 100, 100,
    ]);
  });

  it('asks the shared store once per lease, not once per request', async () => {
    const shared = new SharedCount();
    const one = limiter(600, shared, new ManualClock());
    for (let i = 0; i < 120; i++) expect(await accepted(one)).toBe(true);
    expect(shared.calls).toBe(10);
  });

  it('accepts exactly the limit in one process, then refuses without asking the store again', async () => {
    const shared = new SharedCount();
    const one = limiter(130, shared, new ManualClock()); // leases of 2
    const results = [];
    for (let i = 0; i < 200; i++) results.push(await accepted(one));
    expect(results.filter(Boolean)).toHaveLength(130);
    expect(results.indexOf(false)).toBe(130);
    expect(shared.calls).toBe(65);
  });

  it('starts a fresh budget in the next minute', async () => {
    const shared = new SharedCount();
    const clock = new ManualClock();
    const one = limiter(3, shared, clock);
    for (let i = 0; i < 3; i++) expect(await accepted(one)).toBe(true);
    expect(await accepted(one)).toBe(false);
    clock.advance(60_000);
    expect(await accepted(one)).toBe(true);
  });

  it('keeps one budget per token', async () => {
    const shared = new SharedCount();
    const one = limiter(2, shared, new ManualClock());
    expect([await accepted(one, 'a'), await accepted(one, 'a'), await accepted(one, 'a')]).toEqual([
      true,
      true,
      false,
    ]);
    expect(await accepted(one, 'b')).toBe(true);
  });

  it('never accepts more than the limit across processes, and strands under one lease per other process', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 2_000 }),
        fc.array(fc.nat({ max: 3 }), { minLength: 1, maxLength: 3_000 }),
        async (limit, order) => {
          const shared = new SharedCount();
          const clock = new ManualClock();
          const processes = [0, 1, 2, 3].map(() => limiter(limit, shared, clock));
          let total = 0;
          for (const p of order) if (await accepted(processes[p])) total++;
          expect(total).toBeLessThanOrEqual(limit);
          // Requests beyond the budget were made: only what other processes still hold may be missing.
          if (order.length >= limit + 3 * leaseSize(limit)) {
            expect(total).toBeGreaterThanOrEqual(limit - 3 * (leaseSize(limit) - 1));
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});

import fc from 'fast-check';
import { BoundedTasks } from '../../../src/common/bounded-tasks';

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('BoundedTasks', () => {
  it('runs every task once, starts them in order, never more than the limit at once', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 6 }),
        fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 0, maxLength: 25 }),
        async (limit, delays) => {
          const tasks = new BoundedTasks(limit);
          const started: number[] = [];
          const finished: number[] = [];
          let running = 0;
          let most = 0;
          for (const [i, delay] of delays.entries()) {
            await tasks.submit(async () => {
              started.push(i);
              most = Math.max(most, ++running);
              await sleep(delay);
              running--;
              finished.push(i);
            });
          }
          await tasks.drain();
          expect(started).toEqual(delays.map((_, i) => i));
          expect([...finished].sort((a, b) => a - b)).toEqual(started);
          expect(most).toBeLessThanOrEqual(limit);
          // Tasks that last at least a timer tick overlap up to the limit.
          if (delays.length >= limit && delays.every((delay) => delay > 0)) expect(most).toBe(limit);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('after a failure, starts nothing more and rethrows it once the tasks in flight have settled', async () => {
    const tasks = new BoundedTasks(3);
    const events: string[] = [];
    await tasks.submit(async () => {
      await sleep(30);
      events.push('slow done');
    });
    await tasks.submit(async () => {
      await sleep(5);
      throw new Error('document 2 failed');
    });
    await tasks.submit(async () => {
      await sleep(15);
      events.push('third done');
    });
    // Full: this submit waits for a slot, sees the failure, waits for the others and throws.
    await expect(
      tasks.submit(async () => {
        events.push('fourth started');
      }),
    ).rejects.toThrow('document 2 failed');
    expect(events).toEqual(['third done', 'slow done']);
    await expect(tasks.drain()).rejects.toThrow('document 2 failed');
    await expect(tasks.settled()).resolves.toBeUndefined();
  });

  it('a task that throws before its first await is a failure like any other', async () => {
    const tasks = new BoundedTasks(2);
    await tasks.submit(() => {
      throw new Error('at once');
    });
    await expect(tasks.drain()).rejects.toThrow('at once');
  });

  it.each([0, -1, 1.5, Number.NaN])('refuses the limit %p', (limit) => {
    expect(() => new BoundedTasks(limit)).toThrow(RangeError);
  });
});

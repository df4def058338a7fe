import { WakeableSleep } from '../../../src/projections/wakeable-sleep';

describe('WakeableSleep', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  /** Records the order sleeps end in. */
  function tracker() {
    const ended: string[] = [];
    return {
      ended,
      track: (name: string, sleeping: Promise<void>) => void sleeping.then(() => ended.push(name)),
    };
  }

  it('sleeps of one length share a timer: one joining later ends with the first', async () => {
    const sleep = new WakeableSleep();
    const { ended, track } = tracker();
    track('a', sleep.sleep(25));
    await jest.advanceTimersByTimeAsync(10);
    track('b', sleep.sleep(25));
    track('long', sleep.sleep(500));
    expect(jest.getTimerCount()).toBe(2);
    await jest.advanceTimersByTimeAsync(15);
    expect(ended).toEqual(['a', 'b']);
    // The next sleep of that length starts a fresh timer.
    track('c', sleep.sleep(25));
    await jest.advanceTimersByTimeAsync(24);
    expect(ended).toEqual(['a', 'b']);
    await jest.advanceTimersByTimeAsync(1);
    expect(ended).toEqual(['a', 'b', 'c']);
    await jest.advanceTimersByTimeAsync(500);
    expect(ended).toEqual(['a', 'b', 'c', 'long']);
  });

  it('wakeAll ends every sleep at once and leaves no timer', async () => {
    const sleep = new WakeableSleep();
    const { ended, track } = tracker();
    track('a', sleep.sleep(25));
    track('b', sleep.sleep(500));
    sleep.wakeAll();
    await jest.advanceTimersByTimeAsync(0);
    expect(ended.sort()).toEqual(['a', 'b']);
    expect(jest.getTimerCount()).toBe(0);
  });
});

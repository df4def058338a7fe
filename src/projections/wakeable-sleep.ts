/** Sleeps that can all be cut short at once (to react to a local write without waiting for the next poll). */
export class WakeableSleep {
  private readonly sleepers = new Set<() => void>();

  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.sleepers.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.sleepers.add(done);
    });
  }

  wakeAll(): void {
    for (const wake of [...this.sleepers]) wake();
  }
}

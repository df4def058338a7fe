/**
 * Runs asynchronous tasks with at most `limit` in flight (a bulk ingestion's pipeline: the next documents are
 * scanned in the scan thread while the event loop commits and projects earlier ones). The first task that fails
 * stops the run: `submit()` and `drain()` rethrow its error, but only once every task already started has
 * settled, so nothing is left running behind the error.
 */
export class BoundedTasks {
  private readonly running = new Set<Promise<void>>();
  private failure: { error: unknown } | null = null;

  constructor(private readonly limit: number) {
    if (!Number.isSafeInteger(limit) || limit < 1) {
      throw new RangeError(`the task limit must be a positive integer, got ${limit}`);
    }
  }

  /** Starts `task` once fewer than `limit` run (waiting for one to settle); throws if an earlier one failed. */
  async submit(task: () => Promise<void>): Promise<void> {
    while (this.running.size >= this.limit && this.failure === null) await Promise.race(this.running);
    if (this.failure !== null) await this.drain();
    const run: Promise<void> = Promise.resolve()
      .then(task)
      .catch((error: unknown) => {
        this.failure ??= { error };
      })
      .finally(() => this.running.delete(run));
    this.running.add(run);
  }

  /** Waits for every task started; throws the first failure. */
  async drain(): Promise<void> {
    await this.settled();
    if (this.failure !== null) throw this.failure.error;
  }

  /** Waits for every task started, failed or not (never throws). */
  async settled(): Promise<void> {
    while (this.running.size > 0) await Promise.all([...this.running]);
  }
}

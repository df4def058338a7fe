/** Read-your-writes: wait until the read models have applied a position (bounded). */
export abstract class Consistency {
  /** Resolves true when the projections (default: all) have applied `position`, false when the wait timed out. */
  abstract waitFor(position: number, projections?: readonly string[]): Promise<boolean>;

  /**
   * Marks a bulk load in progress until `end()`: writes that do not wait for their read models until the end
   * (memory:ingest), which the read models may apply in larger batches meanwhile. By default nothing changes.
   */
  bulkLoad(): { end(): void } {
    return { end: () => undefined };
  }
}

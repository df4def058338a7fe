/** Read-your-writes: wait until the read models have applied a position (bounded). */
export abstract class Consistency {
  /** Resolves true when the projections (default: all) have applied `position`, false when the wait timed out. */
  abstract waitFor(position: number, projections?: readonly string[]): Promise<boolean>;
}

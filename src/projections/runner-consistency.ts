import { Consistency } from '../commands/shared/consistency';
import type { ProjectionRunner } from './projection-runner';

/** Read-your-writes through the projection runner, bounded by the configured wait. */
export class RunnerConsistency extends Consistency {
  constructor(
    private readonly runner: ProjectionRunner,
    private readonly timeoutMs: number,
  ) {
    super();
  }

  waitFor(position: number, projections?: readonly string[]): Promise<boolean> {
    return this.runner.waitFor(position, this.timeoutMs, projections);
  }

  override bulkLoad(): { end(): void } {
    return this.runner.bulkLoad();
  }
}

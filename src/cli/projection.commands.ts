import { Command } from 'nest-commander';
import { ValidationFailedError } from '../common/errors';
import { ProjectionRunner } from '../projections/projection-runner';
import { JsonCommand } from './json-command';

/** How long a rebuild may take before the command gives up waiting (it keeps going in the lease holder). */
const REBUILD_TIMEOUT_MS = 30 * 60 * 1000;

@Command({ name: 'projections:status', description: 'Each projection: position, head, lag, lease holder' })
export class ProjectionsStatusCommand extends JsonCommand {
  constructor(private readonly runner: ProjectionRunner) {
    super();
  }

  protected async execute(): Promise<object> {
    return { projections: await this.runner.status() };
  }
}

@Command({
  name: 'projections:rebuild',
  arguments: '[NAME]',
  description: 'Drop a read model (default: all) and replay every event into it',
})
export class ProjectionsRebuildCommand extends JsonCommand {
  constructor(private readonly runner: ProjectionRunner) {
    super();
  }

  protected async execute(params: string[]): Promise<object> {
    const known = this.runner.projections.map((p) => p.name);
    if (params.length > 1 || (params[0] !== undefined && !known.includes(params[0]))) {
      throw new ValidationFailedError(`unknown projection; known: ${known.join(', ')}`, [
        { field: 'NAME', message: `one of ${known.join(', ')}` },
      ]);
    }
    process.stderr.write(`rebuilding ${params[0] ?? 'all projections'}…\n`);
    return { rebuilt: await this.runner.rebuild(params[0] ? [params[0]] : undefined, REBUILD_TIMEOUT_MS) };
  }
}

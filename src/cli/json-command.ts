import { CommandRunner } from 'nest-commander';
import { writeFailure, writeResult } from './cli-output';

/** A CLI command that prints one JSON object on stdout (or the JSON error and exits non-zero). */
export abstract class JsonCommand extends CommandRunner {
  protected abstract execute(params: string[], options: Record<string, unknown>): Promise<object>;

  async run(params: string[], options?: Record<string, unknown>): Promise<void> {
    try {
      writeResult(await this.execute(params, options ?? {}));
    } catch (error) {
      writeFailure(error);
    }
  }
}

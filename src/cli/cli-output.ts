import { ConsoleLogger } from '@nestjs/common';
import { mapError } from '../http/errors/error-response';

/** The one JSON object a command prints on stdout. */
export function writeResult(result: object): void {
  process.stdout.write(`${JSON.stringify({ ok: true, ...result }, null, 2)}\n`);
}

/** A failure: the JSON error on stdout (same shape as the HTTP API), a line on stderr, a non-zero exit. */
export function writeFailure(error: unknown, exitCode = 1): void {
  const mapped = mapError(error);
  if (mapped.unexpected)
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.stdout.write(`${JSON.stringify(mapped.body, null, 2)}\n`);
  process.exitCode = exitCode;
}

/** Nest's logs go to stderr in the CLI, so stdout carries nothing but the result. */
export class StderrLogger extends ConsoleLogger {
  protected override printMessages(
    messages: unknown[],
    context = '',
    logLevel: 'log' | 'error' | 'warn' | 'debug' | 'verbose' | 'fatal' = 'log',
  ): void {
    super.printMessages(messages, context, logLevel, 'stderr');
  }
}

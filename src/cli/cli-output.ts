import { ConsoleLogger } from '@nestjs/common';
import { redactUrlCredentials } from '../common/redact-url-credentials';
import { mapError } from '../http/errors/error-response';

/** The one JSON object a command prints on stdout. */
export function writeResult(result: object): void {
  process.stdout.write(`${JSON.stringify({ ok: true, ...result }, null, 2)}\n`);
}

/**
 * A failure: the JSON error on `out` (stdout by default; same shape as the HTTP API), a stack on stderr when it was
 * unexpected, a non-zero exit. URL credentials in either are shown as `***`.
 */
export function writeFailure(
  error: unknown,
  exitCode = 1,
  out: NodeJS.WritableStream = process.stdout,
): void {
  const mapped = mapError(error);
  if (mapped.unexpected) {
    const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
    process.stderr.write(`${redactUrlCredentials(text)}\n`);
  }
  out.write(`${redactUrlCredentials(JSON.stringify(mapped.body, null, 2))}\n`);
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

import type { LoggerService, LogLevel as NestLevel } from '@nestjs/common';
import type { Logger } from 'pino';

/**
 * Nest's own messages (start-up, unexpected errors logged by filters and handlers) as pino lines, with Nest's
 * context (`RoutesResolver`, `http`, …) as `context`.
 */
export class NestPinoLogger implements LoggerService {
  constructor(private readonly logger: () => Logger) {}

  log(message: unknown, ...rest: unknown[]): void {
    this.write('info', message, rest);
  }
  error(message: unknown, ...rest: unknown[]): void {
    this.write('error', message, rest);
  }
  warn(message: unknown, ...rest: unknown[]): void {
    this.write('warn', message, rest);
  }
  debug(message: unknown, ...rest: unknown[]): void {
    this.write('debug', message, rest);
  }
  verbose(message: unknown, ...rest: unknown[]): void {
    this.write('trace', message, rest);
  }
  fatal(message: unknown, ...rest: unknown[]): void {
    this.write('fatal', message, rest);
  }
  setLogLevels(_levels: NestLevel[]): void {
    // The level is pino's (CAIRN_LOG_LEVEL).
  }

  private write(
    level: 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal',
    message: unknown,
    rest: unknown[],
  ): void {
    // Nest passes (message, context) or (message, stack, context): the context is the last string.
    const context = typeof rest[rest.length - 1] === 'string' ? (rest[rest.length - 1] as string) : undefined;
    const stack = rest.length >= 2 && typeof rest[0] === 'string' ? rest[0] : undefined;
    const fields: Record<string, unknown> = {};
    if (context) fields.context = context;
    if (stack) fields.stack = stack;
    if (message instanceof Error) {
      fields.err = message;
      this.logger()[level](fields, message.message);
    } else {
      this.logger()[level](fields, typeof message === 'string' ? message : JSON.stringify(message));
    }
  }
}

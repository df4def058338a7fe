/**
 * Structured logs (docs/operations.md#logs): JSON lines through pino on stdout, readable (pino-pretty) when stdout
 * is a terminal. Every line written while a request is handled carries its `request_id`.
 * Never log prompt text, memory content, message text or tokens: only codes, ids, statuses and timings.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import pino, { type DestinationStream, type Level, type Logger } from 'pino';
import pinoPretty from 'pino-pretty';

/** The request being handled (set by the access-log hook for everything that runs on its behalf). */
export const requestContext = new AsyncLocalStorage<{ requestId: string }>();

export type LogLevel = Level | 'silent';

export interface LogOptions {
  level: LogLevel;
  /** Where lines go (default: stdout; pretty-printed when it is a terminal). */
  destination?: DestinationStream;
}

function build(options: LogOptions): Logger {
  const destination =
    options.destination ??
    (process.stdout.isTTY
      ? pinoPretty({ colorize: true, sync: true, translateTime: 'SYS:HH:MM:ss.l' })
      : pino.destination({ sync: false }));
  return pino(
    {
      level: options.level,
      base: { pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      messageKey: 'msg',
      formatters: { level: (label) => ({ level: label }) },
      mixin: () => {
        const context = requestContext.getStore();
        return context ? { request_id: context.requestId } : {};
      },
    },
    destination,
  );
}

let root: Logger = build({ level: 'info' });

/** Replaces the process's logger (the server at start; tests capture lines with a destination). */
export function configureLogs(options: LogOptions): Logger {
  root = build(options);
  return root;
}

/** The process's logger. */
export function log(): Logger {
  return root;
}

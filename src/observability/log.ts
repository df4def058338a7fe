/**
 * Structured logs (docs/operations.md#logs): JSON lines through pino on stdout, readable (pino-pretty) when stdout
 * is a terminal. Lines written for a request name it (`request_id`, passed explicitly: no async context, whose
 * hooks would cost every promise of every request).
 * Never log prompt text, memory content, message text or tokens: only codes, ids, statuses and timings.
 */
import pino, { type DestinationStream, type Level, type Logger } from 'pino';
import pinoPretty from 'pino-pretty';

export type LogLevel = Level | 'silent';

export interface LogOptions {
  level: LogLevel;
  /** Where lines go (default: stdout; pretty-printed when it is a terminal). */
  destination?: DestinationStream;
}

/** Lines are written in blocks of this many bytes, and at the latest FLUSH_MS after they were logged. */
const BLOCK_BYTES = 4096;
const FLUSH_MS = 200;

/**
 * Standard output as JSON lines, written in blocks (one write per line cost about as much as formatting the access
 * line, several per cent of a search; docs/operations.md#logs). A line waits at most FLUSH_MS; what is still
 * buffered when the process exits is written then (pino flushes its destination on exit). One per process.
 */
let stdoutBlocks: { stream: DestinationStream; written: () => void } | null = null;

function blockedStdout(): { stream: DestinationStream; written: () => void } {
  if (stdoutBlocks !== null) return stdoutBlocks;
  const stream = pino.destination({ sync: false, minLength: BLOCK_BYTES });
  // A shutdown signal ends in process.kill (Nest's shutdown hooks re-raise it), which runs no exit handler: from
  // the signal on, every line is written at once and synchronously, so the shutdown's own lines are not lost.
  const unblock = (signal: NodeJS.Signals): void => {
    // sonic-boom reads these options from its own properties on every write; its typings do not declare them.
    Object.assign(stream, { minLength: 0, sync: true });
    try {
      stream.flushSync();
    } catch {
      // Not open yet (nothing buffered) or closed: nothing to write.
    }
    // Listening to a signal replaces its default action (ending the process). When nothing else handles it (a CLI
    // command, `cairn mcp`: no Nest shutdown hooks, no worker supervisor), this handler was the only one: the signal
    // is raised again, now without a listener (process.once removed this one), and ends the process as it would have.
    if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
  };
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.once(signal, unblock);
  let pending = false;
  setInterval(() => {
    if (!pending) return;
    pending = false;
    stream.flush();
  }, FLUSH_MS).unref();
  stdoutBlocks = { stream, written: () => (pending = true) };
  return stdoutBlocks;
}

function build(options: LogOptions): Logger {
  const blocks = options.destination === undefined && !process.stdout.isTTY ? blockedStdout() : null;
  const destination =
    options.destination ??
    blocks?.stream ??
    pinoPretty({ colorize: true, sync: true, translateTime: 'SYS:HH:MM:ss.l' });
  return pino(
    {
      level: options.level,
      base: { pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      messageKey: 'msg',
      formatters: { level: (label) => ({ level: label }) },
      ...(blocks
        ? {
            hooks: {
              streamWrite: (line: string) => {
                blocks.written();
                return line;
              },
            },
          }
        : {}),
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

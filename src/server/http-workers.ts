/**
 * `CAIRN_HTTP_WORKERS` > 1: the primary process serves nothing itself; it forks that many HTTP worker processes
 * (node:cluster) which share the listening port, each a whole Cairn server on the same data directory (the
 * embedded stores are multi-process safe; projections run in one process at a time, by lease).
 *
 * - Workers run the server's entry script (`entry`, never the CLI: `cairn serve` forks dist/main.js).
 * - The first worker starts alone (it creates or migrates the storage and, with --demo, seeds the demo); the
 *   others are forked once it listens, so no two processes race through first-start work.
 * - The first start fails fast: a worker that exits, or does not listen within `startTimeoutMs` of its fork, before
 *   all `workers` listened ends the primary (every worker stopped, exit code 1 or the worker's).
 * - Afterwards a worker that dies is replaced (a replacement late by `startTimeoutMs` is killed: a death); more
 *   than MAX_RESTARTS deaths within RESTART_WINDOW_MS is a crash loop: the primary stops every worker and exits 1.
 * - SIGINT / SIGTERM / SIGHUP to the primary: every worker gets SIGTERM (graceful shutdown hooks), SIGKILL after
 *   STOP_GRACE_MS; the primary exits once all are gone. Workers exit by themselves if the primary dies.
 */
import cluster, { type Worker } from 'node:cluster';

/** Set in the environment of the one worker that seeds the demo organization (when --demo is given). */
export const DEMO_SEEDER_ENV = 'CAIRN_DEMO_SEEDER';

const MAX_RESTARTS = 5;
const RESTART_WINDOW_MS = 60_000;
const STOP_GRACE_MS = 10_000;
/** A worker exit is judged after this delay: a Ctrl-C reaches the workers and the primary at the same time. */
const EXIT_SETTLE_MS = 200;

type Log = (line: string) => void;

export interface HttpWorkersOptions {
  workers: number;
  /** The script each worker runs (the server's entry point) and its arguments. */
  entry: string;
  args: string[];
  /** How long a worker may take from its fork to listening (CAIRN_HTTP_WORKER_START_TIMEOUT_MS). */
  startTimeoutMs: number;
  /** Written to stderr by default. */
  log?: Log;
}

/** Runs the primary: forks and supervises the workers. Resolves with the exit code once all have stopped. */
export function superviseHttpWorkers(options: HttpWorkersOptions): Promise<number> {
  const log: Log =
    options.log ?? ((line) => process.stderr.write(`[cairn primary ${process.pid}] ${line}\n`));
  return new Promise((resolve) => {
    let stopping = false;
    /** Until every worker of the first start listens: any failure ends the primary. */
    let firstStart = true;
    let listened = 0;
    let exitCode = 0;
    const restarts: number[] = [];
    const live = new Set<Worker>();
    const timeoutText = `${options.startTimeoutMs} ms (CAIRN_HTTP_WORKER_START_TIMEOUT_MS)`;

    const stop = (code: number, reason: string): void => {
      if (stopping) return;
      stopping = true;
      exitCode = code;
      log(`stopping ${live.size} worker(s): ${reason}`);
      const killTimer = setTimeout(() => {
        for (const worker of live) worker.process.kill('SIGKILL');
      }, STOP_GRACE_MS);
      killTimer.unref();
      for (const worker of live) worker.process.kill('SIGTERM');
      if (live.size === 0) finish();
    };
    const failStart = (code: number, reason: string): void => {
      log(`cairn failed to start: ${reason}`);
      stop(code, 'start failed');
    };
    const finish = (): void => {
      for (const signal of SIGNALS) process.off(signal, onSignal);
      resolve(exitCode);
    };
    const onSignal = (signal: NodeJS.Signals): void => stop(0, signal);
    const SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
    for (const signal of SIGNALS) process.on(signal, onSignal);

    cluster.setupPrimary({ exec: options.entry, args: options.args });
    const fork = (seedsDemo: boolean): Worker => {
      const worker = cluster.fork(seedsDemo ? { [DEMO_SEEDER_ENV]: '1' } : {});
      live.add(worker);
      log(`worker ${worker.process.pid} forked`);
      const late = setTimeout(() => onLate(worker), options.startTimeoutMs);
      worker.once('listening', () => {
        clearTimeout(late);
        if (!firstStart) return;
        listened++;
        if (listened === 1) for (let i = 1; i < options.workers && !stopping; i++) fork(false);
        if (listened === options.workers) firstStart = false;
      });
      worker.once('exit', (code, signal) => {
        clearTimeout(late);
        live.delete(worker);
        setTimeout(() => onExit(worker, seedsDemo, code, signal), EXIT_SETTLE_MS);
      });
      return worker;
    };
    const onLate = (worker: Worker): void => {
      if (stopping) return;
      const pid = worker.process.pid;
      worker.process.kill('SIGKILL');
      if (firstStart) return failStart(1, `worker ${pid} did not listen within ${timeoutText}`);
      log(`worker ${pid} did not listen within ${timeoutText}; killed`);
    };
    const onExit = (worker: Worker, seedsDemo: boolean, code: number | null, signal: string | null): void => {
      if (stopping) {
        if (live.size === 0) finish();
        return;
      }
      const how = signal ?? `code ${code}`;
      if (firstStart)
        return failStart(code || 1, `worker ${worker.process.pid} exited during start (${how})`);
      const now = Date.now();
      restarts.push(now);
      while (restarts.length > 0 && restarts[0] < now - RESTART_WINDOW_MS) restarts.shift();
      if (restarts.length > MAX_RESTARTS) {
        return stop(1, `workers keep dying (${restarts.length} in ${RESTART_WINDOW_MS / 1000} s)`);
      }
      log(`worker ${worker.process.pid} exited (${how}); starting a replacement`);
      fork(seedsDemo);
    };

    log(`starting ${options.workers} HTTP workers`);
    fork(true);
  });
}

/**
 * One request to a benchmark child process and its one answer, over IPC: the parent forks a compiled `*.child.js`
 * beside the caller (askChild), the child answers with `{ ok: true, result }` or `{ ok: false, error }` and exits
 * (answerOnce). A child runs apart so that what it measures or generates never shares the caller's event loop or
 * heap.
 */
import { fork } from 'node:child_process';

type Answer<T> = { ok: true; result: T } | { ok: false; error: string };

/** Forks `modulePath`, sends it `request`, and resolves with its result (rejects with its error); kills it after. */
export async function askChild<T>(modulePath: string, request: unknown, what: string): Promise<T> {
  const child = fork(modulePath, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  try {
    const answer = await new Promise<Answer<T>>((resolve, reject) => {
      child.once('message', (reply) => resolve(reply as Answer<T>));
      child.once('error', reject);
      child.once('exit', (code) =>
        reject(new Error(`the ${what} process exited (${code}) without a result`)),
      );
      child.send(request as object);
    });
    if (!answer.ok) throw new Error(`${what} failed: ${answer.error}`);
    return answer.result;
  } finally {
    if (child.exitCode === null) child.kill();
  }
}

/** In the child: runs `work` on the first request received, sends its answer, then exits. */
export function answerOnce<Q, T>(work: (request: Q) => Promise<T>): void {
  process.once('message', (request: Q) => {
    const reply = (message: Answer<T>): void => {
      process.send?.(message, () => process.exit(0));
    };
    work(request).then(
      (result) => reply({ ok: true, result }),
      (error: unknown) =>
        reply({ ok: false, error: error instanceof Error ? (error.stack ?? error.message) : String(error) }),
    );
  });
}

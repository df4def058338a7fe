import { existsSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import { budgetFlag, type UnsafeFlag } from './scan-fields';

/** What the scan thread is asked: the fields of one record and each field's budget. */
export interface ScanRequest {
  id: number;
  fields: Record<string, string>;
  budgetMs: number;
}

/** What it answers: the flags, or the message of the error the scan threw. */
export type ScanReply = { id: number; flags: UnsafeFlag[] } | { id: number; error: string };

/** The worker's `workerData`: the port it answers on (a port of its own, so a late answer can be read at once). */
export interface ScanWorkerData {
  replies: MessagePort;
}

/**
 * How long past the sum of its fields' budgets a scan may go unanswered before the thread is held to be stuck
 * (a detector that never returns: the in-thread budget is checked between detectors, so it cannot stop one).
 */
export const SCAN_THREAD_GRACE_MS = 1_000;
/** Added to the deadline of a new thread's first request: the worker loads the scanner (secretlint) first. */
export const SCAN_THREAD_STARTUP_MS = 10_000;
/** The longest delay a Node timer takes (a longer one fires at once). */
const MAX_TIMER_MS = 2 ** 31 - 1;

interface Pending {
  request: ScanRequest;
  resolve: (flags: UnsafeFlag[]) => void;
  reject: (error: Error) => void;
}

/**
 * One worker thread that runs scanFields (scan-worker.ts) for the scanner while a bulk ingestion offloads its
 * scans, one request at a time (the others wait here, in order), so a request's deadline counts its own scan only.
 * Fail closed: a scan unanswered past its fields' budgets plus SCAN_THREAD_GRACE_MS is answered with one
 * `scan_budget_exceeded` flag per non-empty field (the record is refused) and the stuck thread is terminated; a
 * thread that dies fails the scan it held (an error: nothing is stored unscanned). Either way the next request
 * starts a new thread. The thread holds the process open only while a scan is waiting.
 */
export class ScanThread {
  private worker: Worker | null = null;
  /** Where the worker's answers arrive. */
  private replies: MessagePort | null = null;
  private readonly queue: Pending[] = [];
  private current: Pending | null = null;
  private timer: NodeJS.Timeout | null = null;
  private nextId = 1;
  private closing: Promise<void> | null = null;
  private drained: (() => void) | null = null;

  constructor(
    private readonly script: string = scanWorkerScript(),
    private readonly graceMs: number = SCAN_THREAD_GRACE_MS,
  ) {}

  scan(fields: Record<string, string>, budgetMs: number): Promise<UnsafeFlag[]> {
    if (this.closing !== null) return Promise.reject(new Error('the scan thread is closed'));
    // What scanFields scans: the fields holding text (it skips the others, as every field it is not given).
    const texts: Record<string, string> = {};
    for (const [field, text] of Object.entries(fields)) if (typeof text === 'string') texts[field] = text;
    return new Promise<UnsafeFlag[]>((resolve, reject) => {
      this.queue.push({ request: { id: this.nextId++, fields: texts, budgetMs }, resolve, reject });
      this.next();
    });
  }

  /** Stops the thread once every scan asked of it is answered; later scans are refused. */
  close(): Promise<void> {
    this.closing ??= new Promise<void>((resolve) => {
      this.drained = resolve;
      this.next();
    }).then(() => this.stop());
    return this.closing;
  }

  /** Sends the next waiting request, if none is in the thread; when none is left, lets the process exit. */
  private next(): void {
    if (this.current !== null) return;
    const pending = this.queue.shift();
    if (pending === undefined) {
      this.worker?.unref();
      this.replies?.unref();
      this.drained?.();
      return;
    }
    this.current = pending;
    const { request } = pending;
    try {
      const fresh = this.worker === null;
      const worker = (this.worker ??= this.start());
      worker.ref();
      this.replies?.ref();
      const fields = Object.values(request.fields).filter((text) => text.length > 0).length;
      const deadline = request.budgetMs * fields + this.graceMs + (fresh ? SCAN_THREAD_STARTUP_MS : 0);
      this.timer = setTimeout(() => this.deadlinePassed(), Math.min(deadline, MAX_TIMER_MS));
      worker.postMessage(request);
    } catch (error) {
      // The thread could not be started or sent to: this request fails, the next one tries a new thread.
      this.stop();
      this.settle().reject(error instanceof Error ? error : new Error(String(error)));
      this.next();
    }
  }

  private start(): Worker {
    const { port1: replies, port2 } = new MessageChannel();
    const data: ScanWorkerData = { replies: port2 };
    const worker = new Worker(this.script, { workerData: data, transferList: [port2] });
    this.replies = replies;
    replies.on('message', (reply: ScanReply) => {
      if (worker === this.worker) this.answer(reply);
    });
    worker.on('error', (error) => {
      if (worker === this.worker) this.fail(`the scan thread failed: ${error.message}`);
    });
    worker.on('exit', (code) => {
      if (worker === this.worker) this.fail(`the scan thread exited (code ${code})`);
    });
    return worker;
  }

  private answer(reply: ScanReply): void {
    if (reply.id !== this.current?.request.id) return;
    const pending = this.settle();
    if ('flags' in reply) pending.resolve(reply.flags);
    else pending.reject(new Error(reply.error));
    this.next();
  }

  /**
   * The deadline passed. An event loop held up past it (a long projection step) runs this timer before the
   * answer waiting on the port: so the port is read first, and only a scan still unanswered is stuck.
   */
  private deadlinePassed(): void {
    const { replies } = this;
    for (
      let waiting = replies && receiveMessageOnPort(replies);
      waiting;
      waiting = receiveMessageOnPort(replies!)
    ) {
      const reply = waiting.message as ScanReply;
      if (reply.id === this.current?.request.id) return this.answer(reply);
    }
    this.stuck();
  }

  /** The request in the thread passed its deadline: refused as unscannable, the thread replaced. */
  private stuck(): void {
    const { request, resolve } = this.settle();
    this.stop();
    resolve(
      Object.keys(request.fields)
        .sort()
        .filter((field) => request.fields[field].length > 0)
        .map((field) => budgetFlag(field, request.fields[field], request.budgetMs)),
    );
    this.next();
  }

  /** The thread died: the request it held fails; the next request starts a new thread. */
  private fail(message: string): void {
    this.worker = null;
    this.replies?.close();
    this.replies = null;
    if (this.current !== null) this.settle().reject(new Error(message));
    this.next();
  }

  /** The request in the thread, taken out (with its deadline cleared). */
  private settle(): Pending {
    const pending = this.current;
    if (pending === null) throw new Error('no scan in the scan thread');
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.current = null;
    return pending;
  }

  private stop(): void {
    const worker = this.worker;
    this.worker = null;
    this.replies?.close();
    this.replies = null;
    if (worker !== null) void worker.terminate();
  }
}

/**
 * The worker script: scan-worker.js beside this file (compiled code), or, when this file runs from the TypeScript
 * sources (jest), the one `npm run build` compiled into dist/ (`npm test` builds first).
 */
export function scanWorkerScript(): string {
  const beside = join(__dirname, 'scan-worker.js');
  if (existsSync(beside)) return beside;
  let root = __dirname;
  while (!existsSync(join(root, 'package.json')) && dirname(root) !== root) root = dirname(root);
  const compiled = join(root, 'dist', relative(join(root, 'src'), __dirname), 'scan-worker.js');
  if (!existsSync(compiled)) {
    throw new Error(`the scan thread's script is missing (${beside}, ${compiled}): run npm run build`);
  }
  return compiled;
}

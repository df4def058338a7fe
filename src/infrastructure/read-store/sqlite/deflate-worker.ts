/**
 * Raw DEFLATE of many texts at once on a worker thread, for the read store's packed fields (packed-fields.ts): a
 * projection step's commit compresses its memory items' chunks while the step writes the search index on the
 * event loop's thread (projection-runner.ts), so a rebuild or an ingestion uses the second core for them.
 *
 * One message a batch (its texts in, one transferred buffer of their compressed bytes out): on this machine a
 * thread pool round trip per text (zlib's async API) cost more than the deflates it moved (docs/benchmarks.md).
 * Small batches are compressed inline: a round trip costs more than a few texts' deflate. The bytes are the same
 * either way (the same zlib, the same level), so a row never depends on where it was compressed.
 *
 * Should the thread fail (it cannot start, it exits, zlib throws in it, a message is refused), the batches it held
 * are compressed inline instead and every later one is: a commit never fails for the thread's sake.
 */
import { Worker } from 'node:worker_threads';
import { deflateRawSync } from 'node:zlib';

/** From this many UTF-16 units in a batch on, it goes to the thread (about ten memory items' chunks). */
export const WORKER_FROM_UNITS = 64 * 1024;
/** A batch goes to the thread in messages of about this many UTF-16 units (64 memory items' chunks). */
const MESSAGE_UNITS = 512 * 1024;
/**
 * The largest text compressed on the thread, in UTF-16 units. An item's chunks can be as large as an append
 * (MAX_APPEND_BYTES_CEILING, 64 MiB, when so configured), more than the thread's heap (THREAD_HEAP_MB) holds.
 */
export const LARGEST_ON_THREAD_UNITS = 4 * 1024 * 1024;
/** The thread's heap limits: its messages' texts, their UTF-8 copies and zlib's output. */
const THREAD_HEAP_MB = { maxYoungGenerationSizeMb: 4, maxOldGenerationSizeMb: 64 };

/**
 * The thread's code (CommonJS, evaluated: no file of its own to find from src/ under jest and from dist/ alike).
 * A batch's outputs travel as one ArrayBuffer and their end offsets, both transferred: no copy back.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { deflateRawSync } = require('node:zlib');
parentPort.on('message', ({ id, texts }) => {
  // A zlib error is thrown: the thread ends, and what it held is compressed inline (where the error recurs).
  const parts = texts.map((text) => deflateRawSync(Buffer.from(text, 'utf8'), { level: workerData.level }));
  let size = 0;
  for (const part of parts) size += part.length;
  const bytes = new Uint8Array(size);
  const ends = new Int32Array(parts.length);
  let at = 0;
  parts.forEach((part, n) => {
    bytes.set(part, at);
    at += part.length;
    ends[n] = at;
  });
  parentPort.postMessage({ id, bytes, ends }, [bytes.buffer, ends.buffer]);
});
`;

/** Raw DEFLATE of `text`'s UTF-8 at `level`: what the thread writes, and what is written inline. */
export function deflateText(text: string, level: number): Buffer {
  return deflateRawSync(Buffer.from(text, 'utf8'), { level });
}

interface Pending {
  texts: readonly string[];
  resolve: (buffers: Buffer[]) => void;
  reject: (error: Error) => void;
}

interface Reply {
  id: number;
  bytes: Uint8Array;
  ends: Int32Array;
}

export class DeflateWorker {
  private worker: Worker | null = null;
  /** The thread failed: everything is compressed inline from then on. */
  private failed = false;
  private nextId = 0;
  private readonly pending = new Map<number, Pending>();

  constructor(
    private readonly level: number,
    /** Batches of fewer UTF-16 units are compressed inline. */
    private readonly fromUnits = WORKER_FROM_UNITS,
    /** A text of more UTF-16 units is compressed inline, whatever its batch. */
    private readonly largestOnThread = LARGEST_ON_THREAD_UNITS,
  ) {}

  /** Each text's raw DEFLATE (UTF-8), in order: inline for a small batch, else from the thread. */
  deflateMany(texts: readonly string[]): Buffer[] | Promise<Buffer[]> {
    let units = 0;
    for (const text of texts) units += text.length;
    if (units < this.fromUnits || this.failed) return this.inline(texts);
    const worker = this.thread();
    if (worker === null) return this.inline(texts);
    // In messages of about MESSAGE_UNITS each: the thread starts on the first while the rest are copied, and no
    // message holds a whole rebuild batch's text twice over (as strings here and there).
    // A text over largestOnThread is compressed inline where it stands (the thread's heap is bounded).
    const messages: Array<Buffer[] | Promise<Buffer[]>> = [];
    let from = 0;
    while (from < texts.length) {
      if (texts[from].length > this.largestOnThread) {
        messages.push(this.inline([texts[from++]]));
        continue;
      }
      let to = from;
      let size = 0;
      while (
        to < texts.length &&
        texts[to].length <= this.largestOnThread &&
        (to === from || size + texts[to].length <= MESSAGE_UNITS)
      )
        size += texts[to++].length;
      messages.push(this.post(worker, texts.slice(from, to)));
      from = to;
    }
    return Promise.all(messages).then((parts) => parts.flat());
  }

  private post(worker: Worker, texts: readonly string[]): Promise<Buffer[]> {
    const id = ++this.nextId;
    return new Promise<Buffer[]>((resolve, reject) => {
      this.pending.set(id, { texts, resolve, reject });
      try {
        worker.postMessage({ id, texts });
      } catch (error) {
        this.fail(error);
      }
    });
  }

  /** Stops the thread (batches it held are compressed inline). */
  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    this.failed = true;
    this.settleInline();
    if (worker !== null) await worker.terminate();
  }

  private inline(texts: readonly string[]): Buffer[] {
    return texts.map((text) => deflateText(text, this.level));
  }

  private thread(): Worker | null {
    if (this.worker !== null) return this.worker;
    try {
      const worker = new Worker(WORKER_SOURCE, {
        eval: true,
        workerData: { level: this.level },
        resourceLimits: THREAD_HEAP_MB,
      });
      // Never what keeps a process alive: a CLI command ends when its work does.
      worker.unref();
      worker.on('message', (reply: Reply) => this.settle(reply));
      worker.on('error', (error) => this.fail(error));
      worker.on('exit', (code) => this.fail(new Error(`the deflate thread exited (code ${code})`)));
      this.worker = worker;
      return worker;
    } catch (error) {
      this.fail(error);
      return null;
    }
  }

  private settle(reply: Reply): void {
    const pending = this.pending.get(reply.id);
    if (pending === undefined) return;
    this.pending.delete(reply.id);
    const { bytes, ends } = reply;
    const buffers: Buffer[] = [];
    let start = 0;
    for (let n = 0; n < ends.length; n++) {
      buffers.push(Buffer.from(bytes.buffer, bytes.byteOffset + start, ends[n] - start));
      start = ends[n];
    }
    pending.resolve(buffers);
  }

  private fail(error: unknown): void {
    // Closed (or already failed with nothing held): the thread's exit is expected.
    if (this.failed && this.worker === null && this.pending.size === 0) return;
    this.failed = true;
    const worker = this.worker;
    this.worker = null;
    if (worker !== null) void worker.terminate().catch(() => undefined);
    process.emitWarning(`the read store's deflate thread failed, compressing inline: ${String(error)}`, {
      code: 'CAIRN_DEFLATE_THREAD',
    });
    this.settleInline();
  }

  /** Compresses every batch the thread held inline. */
  private settleInline(): void {
    const held = [...this.pending.values()];
    this.pending.clear();
    for (const pending of held) {
      try {
        pending.resolve(this.inline(pending.texts));
      } catch (error) {
        pending.reject(error instanceof Error ? error : new Error(String(error)));
      }
    }
  }
}

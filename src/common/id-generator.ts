import { Inject, Injectable } from '@nestjs/common';
import { READ_STORE, type ReadStore } from '../infrastructure/read-store/read-store.port';

export type IdSequence =
  'organization' | 'chatbot' | 'connector' | (string & { readonly __sequence?: never });

/** The largest block a process reserves at once for one sequence. */
export const MAX_ID_BLOCK = 64;

interface Block {
  /** The next id to hand out. */
  next: number;
  /** One past the last reserved id. */
  end: number;
  /** The size of the next reservation (doubles up to MAX_ID_BLOCK). */
  size: number;
}

/**
 * Integer ids for the API: positive, at most 2^53 - 1, unique across processes (reserved atomically in the
 * shared store; sequences are not read models, so rebuilds never reuse an id).
 *
 * Hi/lo: a process reserves ids in blocks and hands them out from memory. The first reservation of a sequence
 * is one id and each later one doubles, up to MAX_ID_BLOCK, so a one-shot CLI process wastes nothing and a bulk
 * ingestion touches the store once per 64 ids. Ids of a block a process never hands out are simply skipped:
 * ids are unique and increasing within a process, not gap-free and not ordered across processes.
 */
@Injectable()
export class IdGenerator {
  private readonly blocks = new Map<string, Block>();
  /** One reservation at a time per sequence, so concurrent callers never take ids from a stale block. */
  private readonly queues = new Map<string, Promise<unknown>>();

  constructor(@Inject(READ_STORE) private readonly store: ReadStore) {}

  async next(sequence: IdSequence): Promise<number> {
    return (await this.many(sequence, 1))[0];
  }

  /** `count` consecutive ids; returns them in order. */
  many(sequence: IdSequence, count: number): Promise<number[]> {
    if (!Number.isSafeInteger(count) || count < 0) {
      return Promise.reject(new RangeError(`id count must be a non-negative safe integer, got ${count}`));
    }
    if (count === 0) return Promise.resolve([]);
    const previous = this.queues.get(sequence) ?? Promise.resolve();
    const run = previous.then(() => this.take(sequence, count));
    this.queues.set(
      sequence,
      run.catch(() => undefined),
    );
    return run;
  }

  private async take(sequence: string, count: number): Promise<number[]> {
    let block = this.blocks.get(sequence);
    if (!block || block.end - block.next < count) {
      const size = Math.max(count, block?.size ?? 1);
      // The store validates `count` (a positive safe integer) and throws RangeError when the sequence is spent.
      const first = await this.store.reserveIds(sequence, size);
      block = { next: first, end: first + size, size: Math.min((block?.size ?? 1) * 2, MAX_ID_BLOCK) };
      this.blocks.set(sequence, block);
    }
    const first = block.next;
    block.next += count;
    return Array.from({ length: count }, (_, index) => first + index);
  }
}

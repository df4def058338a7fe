import { Inject, Injectable } from '@nestjs/common';
import { READ_STORE, type ReadStore } from '../infrastructure/read-store/read-store.port';

export type IdSequence =
  'organization' | 'chatbot' | 'connector' | (string & { readonly __sequence?: never });

/**
 * Integer ids for the API: positive, at most 2^53 - 1, unique across processes (reserved atomically in the
 * shared store; sequences are not read models, so rebuilds never reuse an id).
 */
@Injectable()
export class IdGenerator {
  constructor(@Inject(READ_STORE) private readonly store: ReadStore) {}

  next(sequence: IdSequence): Promise<number> {
    return this.store.reserveIds(sequence, 1);
  }

  /** `count` consecutive ids; returns them in order. */
  async many(sequence: IdSequence, count: number): Promise<number[]> {
    if (count === 0) return [];
    const first = await this.store.reserveIds(sequence, count);
    return Array.from({ length: count }, (_, index) => first + index);
  }
}

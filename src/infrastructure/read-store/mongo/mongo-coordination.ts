/**
 * The MongoDB read store's coordination records: leases (`leases` {_id: name, owner, expires_at}) and id
 * sequences (`id_sequences` {_id: name, last}, the last id handed out) and window counters (`window_counters`
 * {_id: name, window_start, count}). Lease and window times come from `clock`.
 */
import type { Collection, Db } from 'mongodb';
import type { Clock } from '../../../common/clock';
import type { LeaseInfo } from '../read-store.port';
import {
  assertHits,
  assertIdCount,
  assertNonEmptyString,
  assertPosition,
  assertTtl,
} from '../read-store-query';
import { isDuplicateKey, toSafeInteger } from './mongo-values';

type LeaseDoc = { _id: string; owner: string; expires_at: number };
type SequenceDoc = { _id: string; last: number };
type CounterDoc = { _id: string; window_start: number; count: number };

/** How often reserveIds retries after losing the race to create a sequence. */
const SEQUENCE_INSERT_RETRIES = 5;

export class MongoCoordination {
  private readonly leases: Collection<LeaseDoc>;
  private readonly sequences: Collection<SequenceDoc>;
  private readonly counters: Collection<CounterDoc>;

  constructor(
    db: Db,
    private readonly clock: Clock,
  ) {
    this.leases = db.collection<LeaseDoc>('leases');
    this.sequences = db.collection<SequenceDoc>('id_sequences');
    this.counters = db.collection<CounterDoc>('window_counters');
  }

  async acquireLease(name: string, owner: string, ttlMs: number): Promise<boolean> {
    assertNonEmptyString(name, 'lease name');
    assertNonEmptyString(owner, 'lease owner');
    assertTtl(ttlMs);
    const now = this.clock.nowMs();
    try {
      // Matches when free-by-expiry or already ours; when held by another, the upsert's insert hits the unique _id.
      const result = await this.leases.updateOne(
        { _id: name, $or: [{ owner }, { expires_at: { $lte: now } }] },
        { $set: { owner, expires_at: now + ttlMs } },
        { upsert: true },
      );
      return result.matchedCount + result.upsertedCount > 0;
    } catch (error) {
      if (isDuplicateKey(error)) return false;
      throw error;
    }
  }

  async releaseLease(name: string, owner: string): Promise<void> {
    await this.leases.deleteOne({ _id: name, owner });
  }

  async getLease(name: string): Promise<LeaseInfo | null> {
    const doc = await this.leases.findOne({ _id: name });
    return doc
      ? { name: doc._id, owner: doc.owner, expires_at: toSafeInteger(doc.expires_at, 'expires_at') }
      : null;
  }

  async reserveIds(sequence: string, count: number): Promise<number> {
    assertNonEmptyString(sequence, 'sequence');
    assertIdCount(count);
    const highestStart = Number.MAX_SAFE_INTEGER - count; // `last` may be at most this before reserving
    for (let attempt = 0; ; attempt++) {
      try {
        const doc = await this.sequences.findOneAndUpdate(
          { _id: sequence, last: { $lte: highestStart } },
          { $inc: { last: count } },
          { upsert: true, returnDocument: 'after' },
        );
        if (doc === null) throw new Error(`reserveIds: no document returned for sequence ${sequence}`);
        return toSafeInteger(doc.last, `sequence ${sequence}`) - count + 1;
      } catch (error) {
        if (!isDuplicateKey(error)) throw error;
        // Either the sequence is too far along to reserve `count` more, or another caller created it first.
        const current = await this.sequences.findOne({ _id: sequence });
        if (current && toSafeInteger(current.last, `sequence ${sequence}`) > highestStart) {
          throw new RangeError(`sequence ${sequence} is exhausted (Number.MAX_SAFE_INTEGER)`);
        }
        if (attempt >= SEQUENCE_INSERT_RETRIES) throw error;
      }
    }
  }

  /**
   * Three single-document steps, each atomic, instead of one pipeline update (servers that speak the wire protocol
   * without update pipelines, such as jongodb, refuse those): the same or a later stored window (a lagging clock)
   * counts + hits; an earlier stored window starts again at hits; no counter yet is inserted at hits. A step another
   * writer made moot (the window moved, the counter appeared) falls through to the next, or starts over.
   */
  async hitCounter(name: string, windowStart: number, hits = 1): Promise<number> {
    assertNonEmptyString(name, 'counter name');
    assertPosition(windowStart, 'window start');
    assertHits(hits);
    for (let attempt = 0; ; attempt++) {
      const counted = await this.counters.findOneAndUpdate(
        { _id: name, window_start: { $gte: windowStart } },
        { $inc: { count: hits } },
        { returnDocument: 'after' },
      );
      if (counted !== null) return toSafeInteger(counted.count, `counter ${name}`);
      const restarted = await this.counters.findOneAndUpdate(
        { _id: name, window_start: { $lt: windowStart } },
        { $set: { window_start: windowStart, count: hits } },
        { returnDocument: 'after' },
      );
      if (restarted !== null) return toSafeInteger(restarted.count, `counter ${name}`);
      try {
        await this.counters.insertOne({ _id: name, window_start: windowStart, count: hits });
        return hits;
      } catch (error) {
        // Another first hit inserted the counter: count again against it.
        if (!isDuplicateKey(error) || attempt >= SEQUENCE_INSERT_RETRIES) throw error;
      }
    }
  }
}

import { Inject, Injectable } from '@nestjs/common';
import { NotFoundError } from '../common/errors';
import {
  EVENT_STORE,
  type EventStore,
  type RecordedEvent,
} from '../infrastructure/event-store/event-store.port';
import { verifyChain, type ChainBreak } from '../infrastructure/event-store/hash-chain';

export interface AuditReport {
  streams: number;
  events: number;
  /** The first broken link found (streams in order of creation), or null when every chain holds. */
  first_break: ChainBreak | null;
}

/** What auditors use: a stream's full history, and a check of every stream's SHA-256 chain. */
@Injectable()
export class StreamAuditor {
  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}

  async stream(name: string): Promise<{ stream: string; events: RecordedEvent[] }> {
    const events = await this.store.readStream(name);
    if (events.length === 0) throw new NotFoundError(`stream "${name}" does not exist`, 'stream_not_found');
    return { stream: name, events };
  }

  async verify(onProgress?: (streams: number) => void): Promise<AuditReport> {
    let streams = 0;
    let events = 0;
    for await (const name of this.store.listStreams()) {
      const history = await this.store.readStream(name);
      streams += 1;
      events += history.length;
      const broken = verifyChain(history);
      if (broken) return { streams, events, first_break: broken };
      if (streams % 1000 === 0) onProgress?.(streams);
    }
    return { streams, events, first_break: null };
  }
}

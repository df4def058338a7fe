import { ConflictError } from '../../common/errors';
import type { MemorySaveAccepted, MemorySaveEvent } from '../../events/memory/save.events';
import type { Decider } from '../shared/decider';

/** An idempotency key's save: the first request wins; the same content replays it; other content is a 409. */
export const memorySaveDecider: Decider<
  { type: 'AcceptSave'; save: MemorySaveAccepted['data'] },
  { accepted: MemorySaveAccepted['data'] | null },
  MemorySaveEvent
> = {
  initialState: () => ({ accepted: null }),
  evolve: (_state, event) => ({ accepted: event.data }),
  decide(command, state) {
    if (!state.accepted) return [{ type: 'MemorySaveAccepted', data: command.save }];
    if (state.accepted.fingerprint !== command.save.fingerprint) {
      throw new ConflictError(
        'idempotency_key_reused',
        'this idempotency_key was already used for a save with different content',
        [{ field: 'idempotency_key', message: 'reused with different content' }],
      );
    }
    return [];
  },
};

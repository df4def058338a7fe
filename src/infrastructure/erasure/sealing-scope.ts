import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * What the code running now knows about whose data it appends, beyond what each event names itself: a reply's
 * conversation (its recall trace and tool runs are sealed under it) and the items its answer cited (its assistant
 * message is sealed under them too, so erasing a cited item erases the answer that quoted it).
 */
export interface SealingScope {
  conversation_id?: number;
  cited_item_ids?: number[];
}

const storage = new AsyncLocalStorage<SealingScope>();

export function currentSealingScope(): SealingScope {
  return storage.getStore() ?? {};
}

/** Runs `fn` with `scope` added to the current scope. */
export function withSealingScope<T>(scope: SealingScope, fn: () => Promise<T>): Promise<T> {
  return storage.run({ ...currentSealingScope(), ...scope }, fn);
}

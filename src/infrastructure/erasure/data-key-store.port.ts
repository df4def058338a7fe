/**
 * Data keys for crypto-shredding (docs/audit.md "Erasure"): one random AES-256 key per subject (a memory item, a
 * conversation, an organization), kept apart from the events it protects. Destroying a subject's keys leaves its
 * sealed event data as ciphertext nobody can open, while the hash chains (over the ciphertext) still verify.
 */
export interface DataKey {
  /** Names the key inside sealed values (16 hex characters). */
  key_id: string;
  key: Buffer;
}

/**
 * Bindings of new subjects to their keys that keyFor left to be written by the append that uses the keys, in its
 * own transaction (AppendOptions.within): a key is never used by a committed event without its binding.
 */
export interface PendingBindings {
  /** Writes the bindings; runs inside the append's transaction. */
  write(): void;
  /** The append committed: the subjects have these keys from now on. */
  committed(): void;
}

export interface DataKeyStore {
  /**
   * The subject's current key, created when it has none. A destroyed subject gets a new one, unless its erasure is
   * final (erasureIsFinal: a memory item, a proposal): then a key that is bound to it but never stored, so whatever
   * is sealed for it is unreadable from the start. A new subject's binding may be left pending: the caller then
   * takes it with takePendingBindings before it appends.
   */
  keyFor(subject: string, organizationId: number | null): DataKey;
  /** The bindings keyFor left pending since the last call, or null. */
  takePendingBindings(): PendingBindings | null;
  /** A key by id, or null when it was destroyed (or never existed). */
  keyById(keyId: string): Buffer | null;
  /** Destroys every key of these subjects; returns how many keys were destroyed. */
  destroySubjects(subjects: string[], organizationId: number | null): number;
  /** Destroys every key of an organization's subjects. */
  destroyOrganization(organizationId: number): number;
  /** Forgets cached keys another process may have destroyed since (called once per read or append). */
  refresh(): void;
  close(): void;
}

export const DATA_KEY_STORE = Symbol('DATA_KEY_STORE');

/** Subject names: the stream of the thing whose data a key protects. */
export const subjects = {
  memoryItem: (id: number) => `memory-item-${id}`,
  conversation: (id: number) => `conversation-${id}`,
  organization: (id: number) => `organization-${id}`,
  /** A proposal of a new item: erased with the item its approval created (erase-subject.handler.ts). */
  proposal: (id: number) => `proposal-${id}`,
} as const;

/**
 * Subjects that are never written again once erased: a memory item (a write that read it just before its erasure
 * must not store its text under a fresh key) and a new item's proposal. A conversation goes on after an erasure
 * (new messages get a new key), and an organization's erasure ends it.
 */
export function erasureIsFinal(subject: string): boolean {
  return subject.startsWith('memory-item-') || subject.startsWith('proposal-');
}

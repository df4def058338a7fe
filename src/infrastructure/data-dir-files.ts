/** The files of a data directory the embedded engines write (backup and restore name them too). */

/** The embedded file every SQLite adapter shares: events, read models, search index. */
export const EVENT_FILE = 'cairn.sqlite';

/** The data keys (erasure's key store), apart from the events they open. */
export const KEY_FILE = 'cairn-keys.sqlite';

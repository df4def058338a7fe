/**
 * The embedded event store's typed reads (EventStore.readAllOfTypes): the events of some types after a position,
 * the others passed over by their `type` column alone, within a bounded range of positions.
 */
import type { RecordedEvent, TypedRead, TypedReadOptions } from '../event-store.port';
import type { Row, Statements } from './sqlite-event-statements';

/**
 * A typed read looks through at most this many positions: a type that is rare or absent costs a read a bounded
 * scan (about 20 ms on 50,000 rows), not one of the whole log, and the reader asks again from where it stopped.
 */
export const TYPED_READ_WINDOW = 50_000;

/**
 * The head is read first and the rows after it: every position up to that head was committed before the rows are
 * read (positions are taken in commit order, inside the write lock), so the rows hold every event of the types up
 * to it. `through` is the head (or the window's end) unless `max_count` events were found: then the last one.
 */
export function readOfTypes(
  statements: Statements,
  { after_position: after, max_count: limit, types }: TypedReadOptions,
  window: number,
  toRecorded: (row: Row) => RecordedEvent,
): TypedRead {
  if (!Number.isSafeInteger(after) || after < 0) {
    throw new RangeError(`after_position must be a non-negative integer, got ${after}`);
  }
  // Validates the limit (a positive integer) whether or not anything is read.
  const statement = statements.ofTypes.for(limit);
  const head = statements.head.get() as number;
  const until = Math.max(after, Math.min(after + window, head));
  if (types.size === 0 || until === after) return { events: [], through: until, reached_head: until >= head };
  const events = (statement.all(after, until, JSON.stringify([...types])) as Row[]).map(toRecorded);
  const full = events.length === limit;
  return {
    events,
    through: full ? events[events.length - 1].position : until,
    reached_head: !full && until >= head,
  };
}

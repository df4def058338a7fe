import type { RecordedEvent } from '../infrastructure/event-store/event-store.port';
import type { ReadDocument } from '../infrastructure/read-store/read-store.port';
import type { SearchDocument } from '../infrastructure/search/search-index.port';

/** What a projection may do while applying an event. Writes are buffered and committed with the checkpoint. */
export interface ProjectionContext {
  /** Reads a document of one of this projection's collections, seeing this batch's pending writes. */
  get<T extends ReadDocument = ReadDocument>(collection: string, id: string): Promise<T | null>;
  put(collection: string, doc: ReadDocument): void;
  delete(collection: string, id: string): void;
  /** Search index writes; the version is the event's global position. */
  indexDocument(doc: Omit<SearchDocument, 'version'>): void;
  removeDocument(id: string): void;
}

export interface CollectionSpec {
  name: string;
  /** Top-level fields queries filter or sort on. */
  indexes: string[];
  /** Top-level bulk-text fields the store may keep compressed (ReadStore CollectionOptions.packed). */
  packed?: string[];
  /** Indexed fields mostly null, indexed where not null (ReadStore CollectionOptions.sparse). */
  sparse?: string[];
}

/**
 * A named, versioned function from events to read-model operations. Applying an event twice must leave the same
 * result (writes are keyed upserts/deletes), and documents may hold only values derived from events (never "now"),
 * so a rebuild produces exactly the live read model. Bump `version` when the output changes: a runner that finds
 * a checkpoint of another version rebuilds the projection.
 */
export interface Projection {
  name: string;
  version: number;
  collections: CollectionSpec[];
  /** True when the projection writes to the search index (which it then owns). */
  usesSearchIndex?: boolean;
  /**
   * True when a step costs much more per event in small batches (the search index's writes): while events keep
   * arriving and nobody waits for the projection, its steps wait for larger batches (ProjectionRunner, bounded).
   */
  batchesGrowWhileLagging?: boolean;
  /** Event types it reacts to; other events only advance its checkpoint. */
  eventTypes: ReadonlySet<string>;
  apply(event: RecordedEvent, context: ProjectionContext): Promise<void> | void;
}

export const PROJECTIONS = Symbol('PROJECTIONS');

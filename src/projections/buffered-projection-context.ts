import type { ReadDocument, ReadStore, WriteOp } from '../infrastructure/read-store/read-store.port';
import type { SearchDocument } from '../infrastructure/search/search-index.port';
import type { ProjectionContext } from './projection';

/**
 * Collects one batch's writes; reads see the batch's own pending writes first. Writes to the same document
 * coalesce: only each document's final state is committed (a batch is applied atomically, so intermediate
 * states are never visible anyway).
 */
export class BufferedProjectionContext implements ProjectionContext {
  readonly searchUpserts = new Map<string, SearchDocument>();
  readonly searchDeletes = new Map<string, { id: string; version: number }>();
  private readonly pending = new Map<string, ReadDocument | null>();
  private version = 0;

  constructor(
    private readonly readStore: ReadStore,
    private readonly collections: ReadonlySet<string>,
  ) {}

  /** The batch's writes: one put or delete per touched document, its final state. */
  get ops(): WriteOp[] {
    return [...this.pending].map(([key, doc]) => {
      const [collection, id] = key.split('\u0000') as [string, string];
      return doc === null ? { op: 'delete', collection, id } : { op: 'put', collection, doc };
    });
  }

  /** How many writes the batch holds (documents and search documents, each counted once). */
  get writes(): number {
    return this.pending.size + this.searchUpserts.size + this.searchDeletes.size;
  }

  /** The global position of the event being applied; search writes carry it as their version. */
  at(position: number): void {
    this.version = position;
  }

  async get<T extends ReadDocument = ReadDocument>(collection: string, id: string): Promise<T | null> {
    this.check(collection);
    const key = `${collection}\u0000${id}`;
    if (this.pending.has(key)) return (this.pending.get(key) as T | null) ?? null;
    return this.readStore.get<T>(collection, id);
  }

  put(collection: string, doc: ReadDocument): void {
    this.check(collection);
    this.pending.set(`${collection}\u0000${doc.id}`, doc);
  }

  delete(collection: string, id: string): void {
    this.check(collection);
    this.pending.set(`${collection}\u0000${id}`, null);
  }

  indexDocument(doc: Omit<SearchDocument, 'version'>): void {
    this.searchDeletes.delete(doc.id);
    this.searchUpserts.set(doc.id, { ...doc, version: this.version });
  }

  removeDocument(id: string): void {
    this.searchUpserts.delete(id);
    this.searchDeletes.set(id, { id, version: this.version });
  }

  private check(collection: string): void {
    if (!this.collections.has(collection)) {
      throw new Error(`projection wrote to collection "${collection}" it does not own`);
    }
  }
}

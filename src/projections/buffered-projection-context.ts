import type { ReadDocument, ReadStore, WriteOp } from '../infrastructure/read-store/read-store.port';
import type { SearchDocument, SearchWrite } from '../infrastructure/search/search-index.port';
import type { ProjectionContext } from './projection';

/**
 * Collects one batch's writes; reads see the batch's own pending writes first. Writes to the same document
 * coalesce: only each document's final state is committed (a batch is applied atomically, so intermediate
 * states are never visible anyway).
 *
 * Search writes keep their event order: consecutive writes of one kind to the same document coalesce into the
 * first one's place (its final state), but an upsert and a delete of it stay two writes, in order. So the search
 * index sees the same sequence of document creations and removals however the events are cut into batches, and
 * numbers its documents the same way (a rebuild reproduces the live index).
 */
export class BufferedProjectionContext implements ProjectionContext {
  /** The batch's search writes, in event order. */
  readonly searchWrites: SearchWrite[] = [];
  /** Per document, the index in `searchWrites` of its last write. */
  private readonly lastSearchWrite = new Map<string, number>();
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
    return this.pending.size + this.searchWrites.length;
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
    this.searchWrite({ kind: 'upsert', document: { ...doc, version: this.version } }, doc.id);
  }

  removeDocument(id: string): void {
    this.searchWrite({ kind: 'delete', id, version: this.version }, id);
  }

  /** Replaces the document's last write when it is of the same kind, else appends. */
  private searchWrite(write: SearchWrite, id: string): void {
    const last = this.lastSearchWrite.get(id);
    if (last !== undefined && this.searchWrites[last].kind === write.kind) {
      this.searchWrites[last] = write;
      return;
    }
    this.lastSearchWrite.set(id, this.searchWrites.length);
    this.searchWrites.push(write);
  }

  private check(collection: string): void {
    if (!this.collections.has(collection)) {
      throw new Error(`projection wrote to collection "${collection}" it does not own`);
    }
  }
}

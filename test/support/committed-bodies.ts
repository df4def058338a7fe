/**
 * A search body source (body-source.ts) that knows the bodies as of the last completed write, as the memory read
 * model does (the projection runner writes the index first, then commits the read model): while a write is
 * applied, the source still gives the text indexed before it. `forget` and `corrupt` make it lose or alter texts.
 */
import type { SearchWrite } from '../../src/infrastructure/search/search-index.port';
import type { BodyRequest, SearchBodySource } from '../../src/infrastructure/search/sqlite/body-source';
import type { SqliteSearchIndex } from '../../src/infrastructure/search/sqlite/sqlite-search-index';

export class CommittedBodies implements SearchBodySource {
  readonly texts = new Map<string, string>();
  private readonly versions = new Map<string, number>();
  /** Ids asked for, in order (each call's ids). */
  readonly asked: string[][] = [];

  bodies(documents: readonly BodyRequest[]): Map<string, string> {
    this.asked.push(documents.map((d) => d.id));
    const found = new Map<string, string>();
    for (const { id } of documents) {
      const text = this.texts.get(id);
      if (text !== undefined) found.set(id, text);
    }
    return found;
  }

  /** Makes `index`'s completed writes (upsert and delete go through write) and resets update the texts. */
  follow(index: SqliteSearchIndex): SqliteSearchIndex {
    const write = index.write.bind(index);
    index.write = async (writes: SearchWrite[], options) => {
      await write(writes, options);
      for (const w of writes) {
        const id = w.kind === 'upsert' ? w.document.id : w.id;
        const version = w.kind === 'upsert' ? w.document.version : w.version;
        // The index's version guard: an older write changes nothing.
        if ((this.versions.get(id) ?? -Infinity) > version) continue;
        this.versions.set(id, version);
        if (w.kind === 'upsert') this.texts.set(id, w.document.body);
        else this.texts.delete(id);
      }
    };
    const reset = index.reset.bind(index);
    index.reset = async () => {
      await reset();
      this.texts.clear();
      this.versions.clear();
    };
    return index;
  }
}

import type { ReadDocument, ReadStore, WriteOp } from '../../src/infrastructure/read-store/read-store.port';

let counter = 0;
/** A name no other test (or concurrent run against a shared engine) uses. */
export const unique = (prefix: string) =>
  `${prefix}_${Date.now().toString(36)}_${process.pid.toString(36)}_${(counter++).toString(36)}`;
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
export const ids = (docs: ReadDocument[]) => docs.map((d) => d.id);
export const puts = (collection: string, docs: ReadDocument[]): WriteOp[] =>
  docs.map((doc) => ({ op: 'put', collection, doc }));

/** Writes docs through commits of fresh projections (500 per commit); returns the collection. */
export async function seedCollection(
  store: ReadStore,
  docs: ReadDocument[],
  indexed: string[] = [],
  collection = unique('c'),
): Promise<string> {
  await store.ensureCollection(collection, indexed);
  for (let i = 0; i < docs.length; i += 500) {
    const ok = await store.commit(
      unique('seed'),
      0,
      { position: 1, version: 1 },
      puts(collection, docs.slice(i, i + 500)),
    );
    expect(ok).toBe(true);
  }
  return collection;
}

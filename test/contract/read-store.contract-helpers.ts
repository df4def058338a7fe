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

/**
 * Contract tests a server is known to fail (a compatible server's gaps, never the adapter's), by exact test
 * name, each with its reason: registered as skipped with the reason in the name, so every run shows them.
 */
export type KnownGaps = ReadonlyMap<string, string>;

export interface ContractIt {
  (title: string, fn: () => Promise<unknown>, timeout?: number): void;
  /** The gap names no test used (a renamed test must not keep a stale skip). */
  unused(): string[];
}

export function contractIt(gaps: KnownGaps): ContractIt {
  const used = new Set<string>();
  const register = (title: string, fn: () => Promise<unknown>, timeout?: number): void => {
    const reason = gaps.get(title);
    if (reason === undefined) {
      it(title, fn, timeout);
      return;
    }
    used.add(title);
    it.skip(`${title} [known gap of this server: ${reason}]`, fn);
  };
  return Object.assign(register, { unused: () => [...gaps.keys()].filter((title) => !used.has(title)) });
}

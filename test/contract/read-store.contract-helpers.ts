import type { ReadDocument, WriteOp } from '../../src/infrastructure/read-store/read-store.port';

let counter = 0;
/** A name no other test (or concurrent run against a shared engine) uses. */
export const unique = (prefix: string) =>
  `${prefix}_${Date.now().toString(36)}_${process.pid.toString(36)}_${(counter++).toString(36)}`;
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
export const ids = (docs: ReadDocument[]) => docs.map((d) => d.id);
export const puts = (collection: string, docs: ReadDocument[]): WriteOp[] =>
  docs.map((doc) => ({ op: 'put', collection, doc }));

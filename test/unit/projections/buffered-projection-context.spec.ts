import type { ReadStore } from '../../../src/infrastructure/read-store/read-store.port';
import { BufferedProjectionContext } from '../../../src/projections/buffered-projection-context';

const store = { get: async () => ({ id: 'a', n: 0 }) } as unknown as ReadStore;

describe('BufferedProjectionContext', () => {
  it('reads its own pending writes and commits only each document final state', async () => {
    const context = new BufferedProjectionContext(store, new Set(['docs']));
    expect(await context.get('docs', 'a')).toEqual({ id: 'a', n: 0 });
    context.put('docs', { id: 'a', n: 1 });
    context.put('docs', { id: 'a', n: 2 });
    expect(await context.get('docs', 'a')).toEqual({ id: 'a', n: 2 });
    context.put('docs', { id: 'b', n: 1 });
    context.delete('docs', 'b');
    expect(await context.get('docs', 'b')).toBeNull();
    expect(context.ops).toEqual([
      { op: 'put', collection: 'docs', doc: { id: 'a', n: 2 } },
      { op: 'delete', collection: 'docs', id: 'b' },
    ]);
  });

  it('refuses writes to collections the projection does not own', () => {
    const context = new BufferedProjectionContext(store, new Set(['docs']));
    expect(() => context.put('other', { id: 'x' })).toThrow(/does not own/);
  });

  it('stamps search writes with the position of the event being applied and keeps them in event order', () => {
    const context = new BufferedProjectionContext(store, new Set(['docs']));
    const doc = (id: string, title: string) => ({ id, organization_id: '1', title, body: 'b', fields: {} });
    context.at(10);
    context.indexDocument(doc('c1', 'first'));
    context.at(11);
    context.indexDocument(doc('c2', 't'));
    context.indexDocument(doc('c1', 'second'));
    context.at(12);
    context.removeDocument('c1');
    context.removeDocument('c3');
    context.at(13);
    context.removeDocument('c1');
    context.indexDocument(doc('c1', 'third'));
    const writes = context.searchWrites.map((w) =>
      w.kind === 'upsert'
        ? ['upsert', w.document.id, w.document.version, w.document.title]
        : ['delete', w.id, w.version],
    );
    // Consecutive writes of one kind to a document coalesce in the first one's place; an upsert and a delete stay.
    expect(writes).toEqual([
      ['upsert', 'c1', 11, 'second'],
      ['upsert', 'c2', 11, 't'],
      ['delete', 'c1', 13],
      ['delete', 'c3', 12],
      ['upsert', 'c1', 13, 'third'],
    ]);
    expect(context.writes).toBe(5);
  });
});

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

  it('stamps search writes with the position of the event being applied; the last write per id wins', () => {
    const context = new BufferedProjectionContext(store, new Set(['docs']));
    context.at(10);
    context.indexDocument({ id: 'c1', organization_id: '1', title: 't', body: 'b', fields: {} });
    context.at(11);
    context.removeDocument('c1');
    context.at(12);
    context.indexDocument({ id: 'c2', organization_id: '1', title: 't', body: 'b', fields: {} });
    expect([...context.searchUpserts.values()].map((d) => [d.id, d.version])).toEqual([['c2', 12]]);
    expect([...context.searchDeletes.values()]).toEqual([{ id: 'c1', version: 11 }]);
  });
});

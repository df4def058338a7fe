import type { SearchIndex, SearchWrite } from '../../../src/infrastructure/search/search-index.port';
import { LaggingBatches } from '../../../src/projections/lagging-batches';
import { SearchVisibility } from '../../../src/projections/search-visibility';

/** When a projection's search writes are deferred (search-visibility.ts): rebuilds, however they overlap. */
describe('search visibility during rebuilds', () => {
  const writes: SearchWrite[] = [{ kind: 'delete', id: 'chunk-1', version: 1 }];

  function subject() {
    const deferred: boolean[] = [];
    const index = {
      write: async (_writes: SearchWrite[], options?: { defer_visibility?: boolean }) => {
        deferred.push(options?.defer_visibility === true);
      },
    } as unknown as SearchIndex;
    const lagging = new LaggingBatches(5000);
    return { visibility: new SearchVisibility(index, lagging), lagging, deferred };
  }

  it('a rebuilt projection defers its full batches though it is waited for, only while a rebuild of it runs', async () => {
    const { visibility, lagging, deferred } = subject();
    let endFirst!: () => void;
    let endSecond!: () => void;
    await lagging.waiting(async () => {
      const first = visibility.duringRebuild('memory', () => new Promise<void>((r) => (endFirst = r)));
      const second = visibility.duringRebuild('memory', () => new Promise<void>((r) => (endSecond = r)));
      await visibility.write('memory', writes, true);
      // Another projection, and a batch at the head, are not deferred.
      await visibility.write('conversations', writes, true);
      await visibility.write('memory', writes, false);
      endFirst();
      await first;
      // The second rebuild of the same projection still runs.
      await visibility.write('memory', writes, true);
      endSecond();
      await second;
      await visibility.write('memory', writes, true);
    });
    expect(deferred).toEqual([true, false, false, true, false]);
  });

  it('a rebuild that fails ends its deferral too', async () => {
    const { visibility, lagging, deferred } = subject();
    await expect(
      visibility.duringRebuild('memory', async () => {
        throw new Error('rebuild failed');
      }),
    ).rejects.toThrow('rebuild failed');
    await lagging.waiting(() => visibility.write('memory', writes, true));
    expect(deferred).toEqual([false]);
  });
});

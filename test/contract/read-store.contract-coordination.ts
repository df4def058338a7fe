/** The ReadStore contract, part two: commits and checkpoints, leases, id sequences (see read-store.contract.ts). */
import type { ReadStore, WriteOp } from '../../src/infrastructure/read-store/read-store.port';
import { type ContractIt, puts, sleep, unique } from './read-store.contract-helpers';

export function describeCoordinationContract(getStore: () => ReadStore, it: ContractIt): void {
  let store: ReadStore;
  beforeAll(() => {
    store = getStore();
  });

  describe('commit and checkpoints', () => {
    it('is a compare-and-set: a wrong expected position writes nothing', async () => {
      const [c, p] = [unique('c'), unique('p')];
      const before = Date.now();
      expect(await store.commit(p, 5, { position: 6, version: 1 }, puts(c, [{ id: 'x' }]))).toBe(false);
      expect(await store.get(c, 'x')).toBeNull();
      expect(await store.getCheckpoint(p)).toBeNull();
      expect(await store.commit(p, 0, { position: 7, version: 2 }, puts(c, [{ id: 'x' }]))).toBe(true);
      const cp = await store.getCheckpoint(p);
      expect(cp).toMatchObject({ projection: p, position: 7, version: 2 });
      const at = Date.parse(cp?.updated_at ?? '');
      expect(at).toBeGreaterThanOrEqual(before - 1000);
      expect(at).toBeLessThanOrEqual(Date.now() + 1000);
      expect(await store.commit(p, 0, { position: 8, version: 2 }, puts(c, [{ id: 'y' }]))).toBe(false);
      expect(await store.commit(p, 6, { position: 8, version: 2 }, puts(c, [{ id: 'y' }]))).toBe(false);
      expect(await store.get(c, 'y')).toBeNull();
      expect(await store.getCheckpoint(p)).toMatchObject({ position: 7, version: 2 });
      expect(await store.commit(p, 7, { position: 9, version: 3 }, [])).toBe(true);
      expect(await store.getCheckpoint(p)).toMatchObject({ position: 9, version: 3 });
    });

    it('lets exactly one of many concurrent commits from the same position win', async () => {
      const [c, p] = [unique('c'), unique('p')];
      const results = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          store.commit(p, 0, { position: 1, version: 1 }, puts(c, [{ id: `w${i}` }])),
        ),
      );
      expect(results.filter(Boolean)).toHaveLength(1);
      expect((await store.find(c)).total).toBe(1);
    });

    it("loses none of several projections' concurrent commits (each to its own checkpoint)", async () => {
      // Several projections of one runner commit at the same time; each must keep every one of its commits.
      const projections = Array.from({ length: 4 }, () => ({ c: unique('c'), p: unique('p') }));
      const steps = 25;
      const results = await Promise.all(
        projections.map(async ({ c, p }) => {
          const landed: boolean[] = [];
          for (let n = 0; n < steps; n++) {
            landed.push(
              await store.commit(p, n, { position: n + 1, version: 1 }, puts(c, [{ id: `d${n}` }])),
            );
          }
          return landed;
        }),
      );
      for (const [i, { c, p }] of projections.entries()) {
        expect(results[i].every(Boolean)).toBe(true);
        expect(await store.getCheckpoint(p)).toMatchObject({ position: steps });
        expect((await store.find(c)).total).toBe(steps);
      }
    });

    it('writes nothing before `after` settles, then the whole commit', async () => {
      const [c, p] = [unique('c'), unique('p')];
      let release = (): void => undefined;
      const after = new Promise<void>((resolve) => (release = resolve));
      const ops = puts(c, [{ id: 'a', text: 'x'.repeat(50_000) }, { id: 'b' }]);
      const committing = store.commit(p, 0, { position: 3, version: 1 }, ops, { after });
      await sleep(30);
      expect(await store.get(c, 'a')).toBeNull();
      expect(await store.getCheckpoint(p)).toBeNull();
      release();
      expect(await committing).toBe(true);
      expect(await store.get(c, 'a')).toEqual({ id: 'a', text: 'x'.repeat(50_000) });
      expect(await store.get(c, 'b')).toEqual({ id: 'b' });
      expect(await store.getCheckpoint(p)).toMatchObject({ position: 3, version: 1 });
    });

    it('writes nothing and rejects with its error when `after` rejects', async () => {
      const [c, p] = [unique('c'), unique('p')];
      const failure = new Error('the search index refused the batch');
      const after = sleep(10).then(() => Promise.reject(failure));
      await expect(
        store.commit(p, 0, { position: 2, version: 1 }, puts(c, [{ id: 'a' }]), { after }),
      ).rejects.toBe(failure);
      expect(await store.get(c, 'a')).toBeNull();
      expect(await store.getCheckpoint(p)).toBeNull();
    });

    it('rejects an invalid op before writing anything', async () => {
      const [c, p] = [unique('c'), unique('p')];
      const bad = [
        ...puts(c, [{ id: 'ok' }]),
        { op: 'put', collection: c, doc: { id: 'big', n: 1n } },
      ] as WriteOp[];
      await expect(store.commit(p, 0, { position: 1, version: 1 }, bad)).rejects.toThrow(TypeError);
      const noId = [
        ...puts(c, [{ id: 'ok' }]),
        { op: 'put', collection: c, doc: { title: 'x' } },
      ] as unknown as WriteOp[];
      await expect(store.commit(p, 0, { position: 1, version: 1 }, noId)).rejects.toThrow(TypeError);
      expect(await store.get(c, 'ok')).toBeNull();
      expect(await store.getCheckpoint(p)).toBeNull();
      await expect(store.commit(p, 0, { position: 1.5, version: 1 }, [])).rejects.toThrow(RangeError);
      await expect(store.commit(p, 3, { position: 2, version: 1 }, [])).rejects.toThrow(RangeError); // backwards
      for (const reserved of [
        { id: 'r', _id: 'x' },
        { id: 'r', $set: 1 },
      ]) {
        await expect(store.commit(p, 0, { position: 1, version: 1 }, puts(c, [reserved]))).rejects.toThrow(
          TypeError,
        );
      }
      const unknown = [{ op: 'upsert', collection: c, doc: { id: 'u' } }] as unknown as WriteOp[];
      await expect(store.commit(p, 0, { position: 1, version: 1 }, unknown)).rejects.toThrow(TypeError);
      expect(await store.getCheckpoint(p)).toBeNull();
    });

    it('lists checkpoints and resets only the given collections and checkpoint', async () => {
      const [c1, c2, c3, p, q] = [unique('c'), unique('c'), unique('c'), unique('p'), unique('p')];
      const ops = [...puts(c1, [{ id: '1' }, { id: '2' }]), ...puts(c2, [{ id: '1' }])];
      expect(await store.commit(p, 0, { position: 10, version: 4 }, ops)).toBe(true);
      expect(await store.commit(q, 0, { position: 3, version: 1 }, puts(c3, [{ id: '1' }]))).toBe(true);
      const listed = (await store.listCheckpoints()).filter(
        (cp) => cp.projection === p || cp.projection === q,
      );
      expect(listed.map(({ projection, position, version }) => ({ projection, position, version }))).toEqual(
        expect.arrayContaining([
          { projection: p, position: 10, version: 4 },
          { projection: q, position: 3, version: 1 },
        ]),
      );
      expect(listed).toHaveLength(2);
      await store.reset(p, [c1, c2]);
      expect((await store.find(c1)).total).toBe(0);
      expect((await store.find(c2)).total).toBe(0);
      expect((await store.find(c3)).total).toBe(1);
      expect(await store.getCheckpoint(p)).toBeNull();
      expect(await store.getCheckpoint(q)).toMatchObject({ position: 3 });
      expect(await store.commit(p, 0, { position: 1, version: 5 }, puts(c1, [{ id: '3' }]))).toBe(true);
    });
  });

  describe('leases', () => {
    it('acquires, refuses a second owner, renews and releases', async () => {
      const lease = unique('lease');
      expect(await store.getLease(lease)).toBeNull();
      const before = Date.now();
      expect(await store.acquireLease(lease, 'A', 60_000)).toBe(true);
      const info = await store.getLease(lease);
      expect(info).toMatchObject({ name: lease, owner: 'A' });
      expect(info?.expires_at).toBeGreaterThanOrEqual(before + 60_000);
      expect(await store.acquireLease(lease, 'B', 60_000)).toBe(false);
      expect(await store.getLease(lease)).toMatchObject({ owner: 'A' });
      await sleep(5);
      expect(await store.acquireLease(lease, 'A', 120_000)).toBe(true);
      expect((await store.getLease(lease))?.expires_at).toBeGreaterThan(info?.expires_at ?? Infinity);
      await store.releaseLease(lease, 'B'); // not the holder: no effect
      expect(await store.getLease(lease)).toMatchObject({ owner: 'A' });
      await store.releaseLease(lease, 'A');
      expect(await store.getLease(lease)).toBeNull();
      expect(await store.acquireLease(lease, 'B', 60_000)).toBe(true);
    });

    it('lets another owner take an expired lease', async () => {
      const lease = unique('lease');
      expect(await store.acquireLease(lease, 'A', 40)).toBe(true);
      await sleep(80);
      expect(await store.acquireLease(lease, 'B', 60_000)).toBe(true);
      expect(await store.acquireLease(lease, 'A', 60_000)).toBe(false);
      expect(await store.getLease(lease)).toMatchObject({ owner: 'B' });
    });

    it('gives a contended lease to exactly one owner', async () => {
      const lease = unique('lease');
      const owners = Array.from({ length: 8 }, (_, i) => `owner-${i}`);
      const won = await Promise.all(owners.map((o) => store.acquireLease(lease, o, 60_000)));
      expect(won.filter(Boolean)).toHaveLength(1);
      expect((await store.getLease(lease))?.owner).toBe(owners[won.indexOf(true)]);
    });
  });

  describe('id sequences', () => {
    it('reserves consecutive ids from 1, per sequence', async () => {
      const [s1, s2] = [unique('seq'), unique('seq')];
      expect(await store.reserveIds(s1, 1)).toBe(1);
      expect(await store.reserveIds(s1, 5)).toBe(2);
      expect(await store.reserveIds(s1, 1)).toBe(7);
      expect(await store.reserveIds(s2, 3)).toBe(1);
      for (const bad of [0, -1, 1.5, Number.NaN])
        await expect(store.reserveIds(s1, bad)).rejects.toThrow(RangeError);
      expect(await store.reserveIds(s1, 1)).toBe(8);
    });

    it('never hands out an id twice under concurrent calls', async () => {
      const seq = unique('seq');
      const counts = Array.from({ length: 60 }, (_, i) => 1 + (i % 4));
      const firsts = await Promise.all(counts.map((n) => store.reserveIds(seq, n)));
      const reserved = firsts.flatMap((first, i) => Array.from({ length: counts[i] }, (_, k) => first + k));
      const total = counts.reduce((a, b) => a + b, 0);
      expect([...reserved].sort((a, b) => a - b)).toEqual(Array.from({ length: total }, (_, i) => i + 1));
    });

    it('never exceeds Number.MAX_SAFE_INTEGER', async () => {
      const seq = unique('seq');
      expect(await store.reserveIds(seq, Number.MAX_SAFE_INTEGER - 1)).toBe(1);
      expect(await store.reserveIds(seq, 1)).toBe(Number.MAX_SAFE_INTEGER);
      await expect(store.reserveIds(seq, 1)).rejects.toThrow(RangeError);
    });
  });

  describe('window counters', () => {
    it('counts hits per name in the given window', async () => {
      const [a, b] = [unique('counter'), unique('counter')];
      expect(await store.hitCounter(a, 60_000)).toBe(1);
      expect(await store.hitCounter(a, 60_000)).toBe(2);
      expect(await store.hitCounter(b, 60_000)).toBe(1);
      expect(await store.hitCounter(a, 60_000)).toBe(3);
    });

    it('starts again from 1 in a later window; a lagging earlier window counts in the stored one', async () => {
      const name = unique('counter');
      await store.hitCounter(name, 60_000);
      await store.hitCounter(name, 60_000);
      expect(await store.hitCounter(name, 120_000)).toBe(1);
      expect(await store.hitCounter(name, 60_000)).toBe(2);
      expect(await store.hitCounter(name, 120_000)).toBe(3);
      expect(await store.hitCounter(name, 180_000)).toBe(1);
    });

    it('never hands out the same count twice to concurrent hits', async () => {
      const name = unique('counter');
      const counts = await Promise.all(Array.from({ length: 20 }, () => store.hitCounter(name, 60_000)));
      expect(counts.sort((x, y) => x - y)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    });

    it('counts several hits at once (a lease of hits), restarting a later window from them', async () => {
      const name = unique('counter');
      expect(await store.hitCounter(name, 60_000, 12)).toBe(12);
      expect(await store.hitCounter(name, 60_000)).toBe(13);
      expect(await store.hitCounter(name, 60_000, 5)).toBe(18);
      expect(await store.hitCounter(name, 120_000, 7)).toBe(7);
      expect(await store.hitCounter(name, 60_000, 2)).toBe(9);
    });

    it('never hands out the same hit twice to concurrent leases', async () => {
      const name = unique('counter');
      const ends = await Promise.all(Array.from({ length: 20 }, () => store.hitCounter(name, 60_000, 3)));
      expect(ends.sort((x, y) => x - y)).toEqual(Array.from({ length: 20 }, (_, i) => 3 * (i + 1)));
    });

    it('refuses an empty name, a negative window start or hits outside 1..1000000', async () => {
      await expect(store.hitCounter('', 60_000)).rejects.toThrow();
      await expect(store.hitCounter(unique('counter'), -1)).rejects.toThrow();
      for (const hits of [0, -1, 1.5, 1_000_001, Number.NaN]) {
        await expect(store.hitCounter(unique('counter'), 60_000, hits)).rejects.toThrow(RangeError);
      }
    });
  });

  it('answers ping', async () => {
    await expect(store.ping()).resolves.toBeUndefined();
  });
}

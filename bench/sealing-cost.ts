/**
 * What sealing costs (issue 33), for the `event-core` bench: the same events through the plain store and through
 * the sealing store, alternated in rounds of one run.
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { EventMetadata, EventStore, NewEvent } from '../src/infrastructure/event-store/event-store.port';
import { SealingEventStore } from '../src/infrastructure/erasure/sealing-event-store';
import { SqliteDataKeyStore } from '../src/infrastructure/erasure/sqlite-data-key-store';
import { SqliteEventStore } from '../src/infrastructure/event-store/sqlite/sqlite-event-store';
import { SqliteReadStore } from '../src/infrastructure/read-store/sqlite/sqlite-read-store';
import { SqliteSearchIndex } from '../src/infrastructure/search/sqlite/sqlite-search-index';
import { openSqlite } from '../src/infrastructure/sqlite/sqlite-connection';
import { walFlusherFor } from '../src/infrastructure/sqlite/wal-flusher';
import { ALL_PROJECTIONS } from '../src/projections/all-projections';
import { ProjectionRunner } from '../src/projections/projection-runner';
import type { BenchRow } from './table';

/** Metadata of an operator's event in `organization`, now. */
export const meta = (organization: number): EventMetadata => ({
  organization_id: String(organization),
  correlation_id: randomUUID(),
  causation_id: null,
  actor: 'operator:bench',
  occurred_at: new Date().toISOString(),
  schema_version: 1,
});

/** A memory item's creation with ~2 KB of text in 4 chunks. */
function itemCreated(id: number): NewEvent {
  const paragraph = (n: number) =>
    `Paragraph ${n} of item ${id}: the clinic opens at eight, closes at six, and answers the phone in between. `.repeat(
      5,
    );
  const chunks = [0, 1, 2, 3].map((n) => ({
    memory_chunk_id: id * 10 + n,
    ordinal: n,
    heading: `Part ${n}`,
    text: paragraph(n),
  }));
  return {
    type: 'MemoryItemCreated',
    data: {
      memory_item_id: id,
      memory_source_id: 1,
      organization_id: 1,
      revision: 1,
      type: 'faq',
      audience: 'customer_safe',
      authority_level: 'approved_source',
      visibility: 'organization_internal',
      owner_client_key: null,
      source_uri: null,
      title: `Item ${id}`,
      summary: `Summary of item ${id}`,
      content: chunks.map((c) => c.text).join('\n\n'),
      content_sha256: randomUUID(),
      chunks,
      source_date: null,
      effective_at: null,
      expires_at: null,
    },
    metadata: meta(1),
  };
}

export async function sealingCost(dir: string): Promise<BenchRow[]> {
  const open = (name: string, sealed: boolean) => {
    const path = join(dir, `${name}.sqlite`);
    const db = openSqlite({ path, synchronous: 'NORMAL' });
    const wal = walFlusherFor(path);
    const raw = new SqliteEventStore(db, { flusher: wal.flusher });
    const store: EventStore = sealed
      ? new SealingEventStore(raw, new SqliteDataKeyStore(join(dir, `${name}-keys.sqlite`), { bindings: db }))
      : raw;
    return {
      store,
      /** Every read model rebuilt from this store's events (a sealed store opens each event as it reads it). */
      rebuild: async (): Promise<number> => {
        const runner = new ProjectionRunner(
          store,
          new SqliteReadStore(db),
          new SqliteSearchIndex(db),
          ALL_PROJECTIONS,
          {
            owner: `bench-${name}`,
            pollIntervalMs: 5,
          },
        );
        await runner.prepare();
        runner.start();
        if (!(await runner.waitFor(await store.headPosition(), 120_000)))
          throw new Error('catch-up did not finish');
        const started = process.hrtime.bigint();
        await runner.rebuild(undefined, 120_000);
        const took = Number(process.hrtime.bigint() - started) / 1e9;
        await runner.stop();
        return took;
      },
      close: async () => {
        await store.close();
        wal.close();
        db.close();
      },
    };
  };
  const plain = open('plain-items', false);
  const sealed = open('sealed-items', true);
  type Target = typeof plain;
  /** Plain first in even rounds, sealed first in odd ones. */
  const inTurn = (round: number): Array<readonly ['plain' | 'sealed', Target]> =>
    round % 2 === 0
      ? [
          ['plain', plain],
          ['sealed', sealed],
        ]
      : [
          ['sealed', sealed],
          ['plain', plain],
        ];
  const perRound = 1000;
  const seconds = { plain: 0, sealed: 0 };
  let next = 1;
  for (let round = 0; round < 4; round++) {
    for (const [name, target] of inTurn(round)) {
      const first = next;
      next += perRound;
      const started = process.hrtime.bigint();
      for (let id = first; id < first + perRound; id++) {
        await target.store.append(`memory-item-${id}`, [itemCreated(id)], 'no_stream');
      }
      seconds[name] += Number(process.hrtime.bigint() - started) / 1e9;
    }
  }
  // A search's one write: its recall trace (the query sealed under the organization's key), appended as searches
  // append it (acknowledged once committed), alternated in rounds.
  const traceMicros = { plain: 0, sealed: 0 };
  const tracesPerRound = 2000;
  let trace = 1;
  for (let round = 0; round < 4; round++) {
    for (const [name, target] of inTurn(round)) {
      const started = process.hrtime.bigint();
      for (let i = 0; i < tracesPerRound; i++, trace++) {
        await target.store.append(`recall-trace-${trace}`, [recallTrace(trace)], 'no_stream', {
          durability: 'committed',
        });
      }
      traceMicros[name] += Number(process.hrtime.bigint() - started) / 1e3;
    }
  }
  const traces = tracesPerRound * 2;
  const traceRows: BenchRow[] = [
    {
      benchmark: `recall-trace appends (a search's write), plain (${traces})`,
      value: traceMicros.plain / traces,
      unit: 'µs each',
      target: '-',
      ok: true,
    },
    {
      benchmark: 'recall-trace append, sealed − plain (added to each search)',
      value: (traceMicros.sealed - traceMicros.plain) / traces,
      unit: 'µs',
      target: '-',
      ok: true,
    },
  ];

  // Rebuilds alternated: plain, sealed, sealed, plain (each store holds 2,000 items of the same shape).
  const rebuildSeconds = { plain: 0, sealed: 0 };
  for (const [name, target] of [
    ['plain', plain],
    ['sealed', sealed],
    ['sealed', sealed],
    ['plain', plain],
  ] as const) {
    rebuildSeconds[name] += await target.rebuild();
  }
  await plain.close();
  await sealed.close();
  const rebuildRatio = rebuildSeconds.sealed / rebuildSeconds.plain;
  const rebuildRows: BenchRow[] = [
    {
      benchmark: `rebuild every read model from ${perRound * 2} items, plain / sealed (2 runs each)`,
      value: rebuildSeconds.plain / 2,
      unit: 's (plain)',
      target: '-',
      ok: true,
    },
    {
      benchmark: 'sealed / plain rebuild time',
      value: rebuildRatio,
      unit: '×',
      target: '<= 1.1',
      ok: rebuildRatio <= 1.1,
    },
  ];
  const n = perRound * 4;
  const ratio = seconds.plain / seconds.sealed;
  return [
    {
      benchmark: `memory-item appends, ~2 KB text, plain (${n})`,
      value: n / seconds.plain,
      unit: 'appends/s',
      target: '-',
      ok: true,
    },
    {
      benchmark: `memory-item appends, ~2 KB text, sealed (${n})`,
      value: n / seconds.sealed,
      unit: 'appends/s',
      target: '-',
      ok: true,
    },
    {
      benchmark: 'sealed / plain append throughput',
      value: ratio,
      unit: '×',
      target: '>= 0.9',
      ok: ratio >= 0.9,
    },
    ...traceRows,
    ...rebuildRows,
  ];
}

/** A search's recall trace: the query and ten results. */
function recallTrace(n: number): NewEvent {
  return {
    type: 'RecallTraceRecorded',
    data: {
      trace_id: `trace-${n}`,
      organization_id: 1,
      connector_id: 1,
      query: `when does the clinic open on saturday ${n}`,
      results: Array.from({ length: 10 }, (_, i) => ({
        memory_item_id: n + i,
        memory_chunk_id: n * 10 + i,
        rank: i,
      })),
      recorded_at: new Date().toISOString(),
    },
    metadata: meta(1),
  };
}

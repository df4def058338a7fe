/**
 * Durable event appends against plain SQLite on the same disk, interleaved in rounds so both see the same load:
 *
 * - event store: SqliteEventStore.append of one event at a time, each acknowledged after its WAL sync (as the API
 *   appends: synchronous=NORMAL plus the WAL flusher), streams of 500;
 * - plain SQLite: one INSERT of the same event JSON per transaction into a table with an integer key, WAL with
 *   synchronous=FULL (SQLite syncs inside every commit).
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { EventMetadata } from '../../src/infrastructure/event-store/event-store.port';
import { SqliteEventStore } from '../../src/infrastructure/event-store/sqlite/sqlite-event-store';
import { openSqlite } from '../../src/infrastructure/sqlite/sqlite-connection';
import { walFlusherFor } from '../../src/infrastructure/sqlite/wal-flusher';

const ROUNDS = 4;
const PER_ROUND = 500;

export interface AppendComparison {
  eventAppendsPerSecond: number;
  plainInsertsPerSecond: number;
  /** Event appends per second / plain inserts per second. */
  ratio: number;
}

function metadata(): EventMetadata {
  return {
    organization_id: '1',
    correlation_id: randomUUID(),
    causation_id: null,
    actor: 'operator:bench',
    occurred_at: new Date().toISOString(),
    schema_version: 1,
  };
}

export async function compareAppends(dir: string): Promise<AppendComparison> {
  const root = join(dir, 'appends');
  mkdirSync(root, { recursive: true });
  const storePath = join(root, 'events.sqlite');
  const storeDb = openSqlite({ path: storePath, synchronous: 'NORMAL' });
  const wal = walFlusherFor(storePath);
  const store = new SqliteEventStore(storeDb, { flusher: wal.flusher });
  const plainDb = openSqlite({ path: join(root, 'plain.sqlite'), synchronous: 'FULL' });
  plainDb.exec(
    'CREATE TABLE events (position INTEGER PRIMARY KEY, stream TEXT NOT NULL, type TEXT NOT NULL, data TEXT NOT NULL)',
  );
  const insert = plainDb.prepare('INSERT INTO events (stream, type, data) VALUES (?, ?, ?)');
  let storeMs = 0;
  let plainMs = 0;
  let n = 0;
  try {
    for (let round = 0; round < ROUNDS; round++) {
      let started = performance.now();
      for (let i = 0; i < PER_ROUND; i++, n++) {
        await store.append(
          `bench-${n % 500}`,
          [{ type: 'Tick', data: { i: n }, metadata: metadata() }],
          'any',
        );
      }
      storeMs += performance.now() - started;
      started = performance.now();
      for (let i = 0; i < PER_ROUND; i++) {
        insert.run(`bench-${i % 500}`, 'Tick', JSON.stringify({ data: { i }, metadata: metadata() }));
      }
      plainMs += performance.now() - started;
    }
  } finally {
    await store.close();
    wal.close();
    storeDb.close();
    plainDb.close();
    rmSync(root, { recursive: true, force: true });
  }
  const total = ROUNDS * PER_ROUND;
  const eventAppendsPerSecond = (total * 1000) / storeMs;
  const plainInsertsPerSecond = (total * 1000) / plainMs;
  return {
    eventAppendsPerSecond,
    plainInsertsPerSecond,
    ratio: eventAppendsPerSecond / plainInsertsPerSecond,
  };
}

import type { CommandBus } from '@nestjs/cqrs';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { StreamCommandExecutor } from '../../../src/commands/shared/stream-command-executor';
import { operatorContext } from '../../../src/commands/shared/command-context';
import type { IngestDocumentCommand } from '../../../src/commands/memory/ingest-document.command';
import { INGEST_IN_FLIGHT, listPaths, MemoryIngestRun } from '../../../src/cli/memory-ingest-run';
import type { EventStore } from '../../../src/infrastructure/event-store/event-store.port';
import { UnsafeContentError, ValidationFailedError } from '../../../src/common/errors';
import * as readers from '../../../src/ingestion/readers/read-documents';
import { makeTempDir } from '../../support/temp-dir';

/*
 * memory:ingest keeps INGEST_IN_FLIGHT documents in flight with its scans in the scan thread (issue 32), and still
 * reports items in the order it read them; a document's unexpected error stops the run only once the documents in
 * flight are done.
 */
describe('MemoryIngestRun pipeline', () => {
  const dir = makeTempDir('cairn-ingest-run-');
  afterAll(() => dir.cleanup());
  const DOCUMENTS = 13;
  const file = join(dir.dir, 'records.jsonl');
  writeFileSync(
    file,
    Array.from({ length: DOCUMENTS }, (_, i) =>
      JSON.stringify({ id: `r${i}`, title: `Record ${i}`, content: `Record number ${i}.` }),
    ).join('\n'),
  );

  /** A command bus whose commands finish in an order unlike the order they start in; `fail` names a record. */
  function harness(fail?: number) {
    const log: string[] = [];
    let running = 0;
    let most = 0;
    let leased = false;
    const commands = {
      execute: async (command: IngestDocumentCommand) => {
        const n = Number(command.document.document_key.split('#r')[1]);
        if (!leased) throw new Error(`record ${n} ran without the scan lease`);
        log.push(`start ${n}`);
        most = Math.max(most, ++running);
        // Spread wide (up to 100 ms) so that load, delaying one start by a few ms, does not reorder the ends.
        await new Promise((resolve) => setTimeout(resolve, 2 + ((n * 7) % 5) * 25));
        running--;
        log.push(`end ${n}`);
        if (n === fail) throw new Error(`record ${n} failed`);
        // Refusals and invalid documents among them, finishing out of order too.
        if (n === 2 || n === 3) {
          const flag = { field: 'content', kind: 'secret', rule: 'aws_access_key_id', line: 1, column: n };
          throw new UnsafeContentError([{ ...flag, message: 'Unsafe content (secret).' }]);
        }
        if (n === 7 || n === 8) {
          throw new ValidationFailedError('invalid', [{ field: 'title', message: `bad ${n}` }]);
        }
        return {
          memory_item_id: 100 + n,
          memory_source_id: 200 + n,
          status: 'created',
          revision: 1,
          chunks: 1,
        };
      },
    } as unknown as CommandBus;
    const scanner = {
      offload: () => {
        leased = true;
        return {
          end: () => {
            log.push('lease ended');
            leased = false;
          },
        };
      },
    };
    const executor = {
      bulkLoad: () => ({ end: () => undefined }),
      settle: async () => undefined,
    } as unknown as StreamCommandExecutor;
    const events = { headPosition: async () => 0 } as unknown as EventStore;
    const compact = jest.fn(() => 0);
    const stores = { relaxDurability: () => ({ end: () => undefined }), compact };
    const run = new MemoryIngestRun(commands, executor, events, stores, scanner);
    return { run, log, most: () => most, compact };
  }

  const options = { audience: 'internal', authority_level: 'reference', expires_at: null } as const;

  it('keeps INGEST_IN_FLIGHT documents in flight under the scan lease and reports items in read order', async () => {
    const { run, log, most, compact } = harness();
    const report = await run.run(1, await listPaths([file]), options, operatorContext('test'));
    // The run's freed pages go back to the disk once, at its end.
    expect(compact).toHaveBeenCalledTimes(1);
    expect(most()).toBe(INGEST_IN_FLIGHT);
    expect(INGEST_IN_FLIGHT).toBeGreaterThan(1);
    const stored = Array.from({ length: DOCUMENTS }, (_, i) => i).filter((i) => ![2, 3, 7, 8].includes(i));
    expect(report.items.map((item) => item.document_key.replace(/^.*#/, ''))).toEqual(
      stored.map((i) => `r${i}`),
    );
    expect(report.items.map((item) => item.memory_item_id)).toEqual(stored.map((i) => 100 + i));
    expect(report.refused.map((entry) => entry.flags[0].column)).toEqual([2, 3]);
    expect(report.skipped.map((entry) => entry.message)).toEqual(['title bad 7', 'title bad 8']);
    // Finished out of order, reported in order.
    const ends = log.filter((line) => line.startsWith('end')).map((line) => Number(line.slice(4)));
    expect(ends).not.toEqual([...ends].sort((a, b) => a - b));
    // Each pair finished in the reverse of its read order (3 before 2, 8 before 7): the sorting is what orders them.
    expect(ends.indexOf(3)).toBeLessThan(ends.indexOf(2));
    expect(ends.indexOf(8)).toBeLessThan(ends.indexOf(7));
    expect(report.totals).toMatchObject({
      documents: stored.length,
      created: stored.length,
      chunks_written: stored.length,
      refused: 2,
      skipped: 2,
    });
    expect(log[log.length - 1]).toBe('lease ended');
  });

  it('an unexpected error stops the run after the documents in flight finish; nothing starts after it', async () => {
    const { run, log } = harness(3);
    await expect(run.run(1, await listPaths([file]), options, operatorContext('test'))).rejects.toThrow(
      'record 3 failed',
    );
    const started = log.filter((line) => line.startsWith('start')).length;
    const ended = log.filter((line) => line.startsWith('end')).length;
    expect(ended).toBe(started);
    expect(started).toBeLessThan(DOCUMENTS);
    expect(log.indexOf('end 3')).toBeGreaterThan(-1);
    expect(log.slice(log.indexOf('end 3')).filter((line) => line.startsWith('start'))).toEqual([]);
    expect(log[log.length - 1]).toBe('lease ended');
  });

  it('a reader that throws stops the run only after the documents in flight finish', async () => {
    const actual = readers.readFile;
    const read = jest.spyOn(readers, 'readFile').mockImplementation(async function* (file, readOptions) {
      let n = 0;
      for await (const entry of actual(file, readOptions)) {
        yield entry;
        if (++n === 6) throw new Error('disk read failed');
      }
    });
    try {
      const { run, log } = harness();
      await expect(run.run(1, await listPaths([file]), options, operatorContext('test'))).rejects.toThrow(
        'disk read failed',
      );
      const started = log.filter((line) => line.startsWith('start')).length;
      expect(started).toBe(6);
      expect(log.filter((line) => line.startsWith('end'))).toHaveLength(6);
      expect(log[log.length - 1]).toBe('lease ended');
    } finally {
      read.mockRestore();
    }
  });
});

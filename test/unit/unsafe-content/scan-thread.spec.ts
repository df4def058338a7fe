import { join } from 'node:path';
import { scanFields } from '../../../src/safety/unsafe-content/scan-fields';
import {
  ScanThread,
  SCAN_THREAD_GRACE_MS,
  scanWorkerScript,
} from '../../../src/safety/unsafe-content/scan-thread';
import { EVASIONS_V3, SUPPORT_TEXTS_V3 } from './samples/evasions-v3';
import { POSITIVES } from './samples/positives';

/*
 * The scan thread (bulk ingestion's scans, issue 32) gives exactly the in-thread scanner's findings, and fails
 * closed: a scan that never returns is refused with budget flags and its thread replaced; a thread that dies fails
 * its scan with an error, and the next scan gets a new thread.
 */
const FIXTURE = join(__dirname, '../../support/scan-worker-fixture.js');
const awsId = 'AKIA' + 'QX7ZL2MWN4PRT5VY';

describe('ScanThread', () => {
  jest.setTimeout(60_000);

  it('finds what the in-thread scan finds, field by field, for every sample', async () => {
    const thread = new ScanThread(scanWorkerScript());
    try {
      const records: Array<Record<string, string>> = [
        ...EVASIONS_V3.map((sample) => ({ content: sample.text, title: sample.id })),
        ...SUPPORT_TEXTS_V3.map((sample) => ({ content: sample.text })),
        ...POSITIVES.map((sample) => ({ content: sample.input, summary: 'Nightly job', title: '' })),
      ];
      expect(records.length).toBeGreaterThan(150);
      // Every record asked at once: they queue and are answered in order, each with its own findings.
      const threaded = await Promise.all(records.map((fields) => thread.scan(fields, 10_000)));
      let flagged = 0;
      for (const [i, fields] of records.entries()) {
        const inThread = await scanFields(fields, 10_000);
        expect(threaded[i]).toEqual(inThread);
        if (inThread.length > 0) flagged++;
      }
      expect(flagged).toBeGreaterThanOrEqual(EVASIONS_V3.length);
    } finally {
      await thread.close();
    }
  });

  it('refuses a scan that never returns with budget flags, replaces the thread and answers the scans after it', async () => {
    const thread = new ScanThread(FIXTURE, 200);
    try {
      const started = performance.now();
      const stuck = thread.scan({ content: 'hang', title: 'Uploader', summary: '' }, 100);
      const after = thread.scan({ content: `Upload key ${awsId} for the nightly job.` }, 100);
      await expect(stuck).resolves.toEqual([
        expect.objectContaining({
          kind: 'scan_budget_exceeded',
          rule: 'scan_budget_exceeded',
          field: 'content',
        }),
        expect.objectContaining({
          kind: 'scan_budget_exceeded',
          rule: 'scan_budget_exceeded',
          field: 'title',
        }),
      ]);
      // Its deadline: two non-empty fields' budgets plus the grace.
      expect(performance.now() - started).toBeGreaterThanOrEqual(2 * 100 + 200 - 5);
      await expect(after).resolves.toEqual([
        expect.objectContaining({ kind: 'secret', rule: 'aws_access_key_id', field: 'content' }),
      ]);
    } finally {
      await thread.close();
    }
  });

  it('an event loop held up past the deadline still gets the answer the thread gave in time', async () => {
    const thread = new ScanThread(scanWorkerScript(), 100);
    try {
      const scanned = thread.scan({ content: `Upload key ${awsId} for the nightly job.` }, 50);
      // The main thread busy past the deadline (150 ms) while the thread answers in a few milliseconds: the
      // deadline's timer runs before the answer's message event.
      const until = performance.now() + 1_500;
      while (performance.now() < until);
      await expect(scanned).resolves.toEqual([
        expect.objectContaining({ kind: 'secret', rule: 'aws_access_key_id', field: 'content' }),
      ]);
    } finally {
      await thread.close();
    }
  });

  it('fails the scan of a thread that dies, then scans the next record in a new thread', async () => {
    const thread = new ScanThread(FIXTURE, SCAN_THREAD_GRACE_MS);
    try {
      const crashed = thread.scan({ content: 'crash' }, 1_000);
      const after = thread.scan({ content: 'Open 9 to 17 on weekdays.' }, 1_000);
      await expect(crashed).rejects.toThrow(/scan thread failed: detector blew up/);
      await expect(after).resolves.toEqual([]);
    } finally {
      await thread.close();
    }
  });

  it('close() answers the scans already asked, then refuses new ones', async () => {
    const thread = new ScanThread(scanWorkerScript());
    const asked = thread.scan({ content: `key ${awsId}` }, 1_000);
    const closed = thread.close();
    await expect(thread.scan({ content: 'late' }, 1_000)).rejects.toThrow(/closed/);
    await expect(asked).resolves.toHaveLength(1);
    await closed;
  });
});

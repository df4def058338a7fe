import { join } from 'node:path';
import { scanFields } from '../../../src/safety/unsafe-content/scan-fields';
import {
  ScanThread,
  SCAN_THREAD_GRACE_MS,
  scanWorkerScript,
} from '../../../src/safety/unsafe-content/scan-thread';
import { Worker } from 'node:worker_threads';
import { EVASIONS } from './samples/evasions';
import { EVASIONS_V3, SUPPORT_TEXTS_V3 } from './samples/evasions-v3';
import { NEGATIVES } from './samples/negatives';
import { POSITIVES } from './samples/positives';
import { SUPPORT_TEXT } from './samples/support-text';

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
        ...EVASIONS.map((sample) => ({ content: sample.input })),
        ...NEGATIVES.map((sample) => ({ content: sample.input, title: sample.label })),
        ...SUPPORT_TEXT.map((sample) => ({ content: sample.input })),
      ];
      expect(records.length).toBeGreaterThan(250);
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
    const terminate = jest.spyOn(Worker.prototype, 'terminate');
    try {
      // A running thread first (a new thread's first request also has the start-up allowance, and a cold
      // thread's first scan can pass a small budget of its own on a loaded machine).
      await expect(thread.scan({ content: 'Open 9 to 17.' }, 10_000)).resolves.toEqual([]);
      const started = performance.now();
      const stuck = thread.scan({ content: 'hang', title: 'Uploader', summary: '' }, 100);
      // Sent again to a new thread (its first request: a cold scan gets a budget it cannot pass by accident).
      const after = thread.scan({ content: `Upload key ${awsId} for the nightly job.` }, 10_000);
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
      // The stuck thread was terminated (not left spinning), before the next request went to a new one.
      expect(terminate).toHaveBeenCalledTimes(1);
      await expect(after).resolves.toEqual([
        expect.objectContaining({ kind: 'secret', rule: 'aws_access_key_id', field: 'content' }),
      ]);
    } finally {
      await thread.close();
      terminate.mockRestore();
    }
  });

  it('a scan that threw in the thread fails with its error; the thread goes on', async () => {
    const thread = new ScanThread(FIXTURE);
    try {
      await expect(thread.scan({ content: 'fail' }, 10_000)).rejects.toThrow('the scan threw');
      await expect(thread.scan({ content: `key ${awsId}` }, 10_000)).resolves.toHaveLength(1);
    } finally {
      await thread.close();
    }
  });

  it('scans only the fields holding text, as the in-thread scan does', async () => {
    const thread = new ScanThread(scanWorkerScript());
    try {
      const fields = { content: `key ${awsId}`, summary: undefined, title: null } as unknown as Record<
        string,
        string
      >;
      expect(await thread.scan(fields, 10_000)).toEqual(await scanFields(fields, 10_000));
      expect(await thread.scan({ content: 'Open 9 to 17.' }, 10_000)).toEqual([]);
    } finally {
      await thread.close();
    }
  });

  it('an event loop held up past the deadline still gets the answer the thread gave in time', async () => {
    const thread = new ScanThread(scanWorkerScript(), 100);
    try {
      await thread.scan({ content: 'warm-up' }, 10_000); // the thread running before the clock matters
      const scanned = thread.scan({ content: `Upload key ${awsId} for the nightly job.` }, 1_000);
      // The main thread busy past the deadline (1.1 s) in a check-phase callback while the thread answers in a few
      // milliseconds: the next turn of the event loop runs the expired deadline's timer before it delivers the
      // answer's message (timers come first).
      await new Promise<void>((resolve) =>
        setImmediate(() => {
          const until = performance.now() + 2_500;
          while (performance.now() < until);
          resolve();
        }),
      );
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
      const crashed = thread.scan({ content: 'crash' }, 10_000);
      const after = thread.scan({ content: 'Open 9 to 17 on weekdays.' }, 10_000);
      await expect(crashed).rejects.toThrow(/scan thread failed: detector blew up/);
      await expect(after).resolves.toEqual([]);
    } finally {
      await thread.close();
    }
  });

  it('close() answers the scans already asked, then refuses new ones', async () => {
    const thread = new ScanThread(scanWorkerScript());
    const asked = thread.scan({ content: `key ${awsId}` }, 10_000);
    const closed = thread.close();
    await expect(thread.scan({ content: 'late' }, 10_000)).rejects.toThrow(/closed/);
    await expect(asked).resolves.toHaveLength(1);
    await closed;
  });
});

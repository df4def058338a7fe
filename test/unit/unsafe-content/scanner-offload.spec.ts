import { ScanThread, scanWorkerScript } from '../../../src/safety/unsafe-content/scan-thread';
import { UnsafeContentScanner } from '../../../src/safety/unsafe-content/unsafe-content-scanner';

/* Scans run in a scan thread exactly while an offload() lease is held (bulk ingestion), in the caller's otherwise. */
describe('UnsafeContentScanner.offload', () => {
  const awsId = 'AKIA' + 'QX7ZL2MWN4PRT5VY';
  const record = { content: `Upload key ${awsId} for the nightly job.`, title: 'Uploader' };

  function scannerWithThreads(): {
    scanner: UnsafeContentScanner;
    threads: ScanThread[];
    asked: () => number;
  } {
    const scanner = new UnsafeContentScanner();
    const threads: ScanThread[] = [];
    let asked = 0;
    scanner.newThread = () => {
      const thread = new ScanThread(scanWorkerScript());
      const scan = thread.scan.bind(thread);
      thread.scan = (fields, budgetMs) => {
        asked++;
        return scan(fields, budgetMs);
      };
      threads.push(thread);
      return thread;
    };
    return { scanner, threads, asked: () => asked };
  }

  it('scans in the thread while a lease is held, with the same findings, and stops it when the last lease ends', async () => {
    const { scanner, threads, asked } = scannerWithThreads();
    const inThread = await scanner.scan(record);
    expect(threads).toHaveLength(0);
    expect(inThread).toEqual([expect.objectContaining({ kind: 'secret', rule: 'aws_access_key_id' })]);

    const first = scanner.offload();
    const second = scanner.offload();
    expect(threads).toHaveLength(0); // started by the first scan, not by the lease
    expect(await scanner.scan(record)).toEqual(inThread);
    expect(await scanner.scan({ content: 'Open 9 to 17.' })).toEqual([]);
    expect([threads.length, asked()]).toEqual([1, 2]);

    const close = jest.spyOn(threads[0], 'close');
    first.end();
    first.end(); // idempotent: does not end the second lease
    expect(close).not.toHaveBeenCalled();
    expect(await scanner.scan(record)).toEqual(inThread);
    expect(asked()).toBe(3);
    second.end();
    expect(close).toHaveBeenCalledTimes(1);
    await close.mock.results[0].value;

    expect(await scanner.scan(record)).toEqual(inThread);
    expect([threads.length, asked()]).toEqual([1, 3]);
  });

  it('uses the budget set on the scanner', async () => {
    const { scanner } = scannerWithThreads();
    scanner.budgetMs = 0;
    const lease = scanner.offload();
    try {
      expect(await scanner.scan({ content: 'Open 9 to 17 on weekdays.' })).toEqual([
        expect.objectContaining({ kind: 'scan_budget_exceeded', field: 'content' }),
      ]);
    } finally {
      lease.end();
    }
  });

  it('closes a running thread when the application shuts down', async () => {
    const { scanner, threads } = scannerWithThreads();
    scanner.offload();
    await scanner.scan(record);
    const close = jest.spyOn(threads[0], 'close');
    await scanner.onModuleDestroy();
    expect(close).toHaveBeenCalledTimes(1);
  });
});

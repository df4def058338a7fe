import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import { DEFAULT_SCAN_BUDGET_MS, scanFields, type UnsafeFlag } from './scan-fields';
import { ScanThread } from './scan-thread';

export { DEFAULT_SCAN_BUDGET_MS, SCAN_BUDGET_EXCEEDED, type UnsafeFlag } from './scan-fields';

/**
 * Detects unsafe content (secrets, private keys, password hashes, card numbers, bulk personal data) in the text
 * fields of a record, so the caller can refuse to store it. Findings name kind, rule and location, never the value
 * (scan-fields.ts).
 *
 * A scan runs in the caller's thread, except while a bulk ingestion holds an `offload()` lease: then scans run in
 * one scan thread (scan-thread.ts), so the event loop applies the previous documents to the read models while the
 * next one is scanned (the scan is about a third of a document's ingestion; issue 32). Same findings either way.
 */
@Injectable()
export class UnsafeContentScanner implements OnModuleDestroy {
  /** Milliseconds one field's scan may take before it is refused (see DEFAULT_SCAN_BUDGET_MS). */
  budgetMs = DEFAULT_SCAN_BUDGET_MS;
  /** Makes the scan thread offloaded scans run in (a test may give another worker script). */
  newThread: () => ScanThread = () => new ScanThread();
  private leases = 0;
  private thread: ScanThread | null = null;

  scan(fields: Record<string, string>): Promise<UnsafeFlag[]> {
    if (this.leases === 0) return scanFields(fields, this.budgetMs);
    this.thread ??= this.newThread();
    return this.thread.scan(fields, this.budgetMs);
  }

  /**
   * Until `end()`, scans run in a scan thread (started at the first scan; stopped when the last lease ends, once
   * its scans are answered). For bulk ingestion: one request's scan gains nothing from a thread.
   */
  offload(): { end(): void } {
    this.leases++;
    let ended = false;
    return {
      end: () => {
        if (ended) return;
        ended = true;
        if (--this.leases > 0) return;
        const thread = this.thread;
        this.thread = null;
        void thread?.close();
      },
    };
  }

  async onModuleDestroy(): Promise<void> {
    const thread = this.thread;
    this.thread = null;
    await thread?.close();
  }
}

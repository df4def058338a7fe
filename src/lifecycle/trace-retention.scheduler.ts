/**
 * The server's recall-trace retention: a minute after start, then every hour, one process at a time (a read-store
 * lease) prunes the search traces older than CAIRN_TRACE_RETENTION_DAYS (0: never). Timers never keep the process
 * alive; a failed run is logged and tried again at the next hour.
 */
import { randomUUID } from 'node:crypto';
import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { Clock } from '../common/clock';
import type { CairnConfig } from '../config/config';
import { CONFIG } from '../core.module';
import { READ_STORE, type ReadStore } from '../infrastructure/read-store/read-store.port';
import { log } from '../observability/log';
import { TraceRetention } from './trace-retention';

const FIRST_RUN_MS = 60_000;
const EVERY_MS = 60 * 60_000;
const LEASE = 'trace-retention';
const LEASE_TTL_MS = 30 * 60_000;
const DAY_MS = 24 * 60 * 60_000;

@Injectable()
export class TraceRetentionScheduler implements OnApplicationBootstrap, OnModuleDestroy {
  private timer: NodeJS.Timeout | null = null;
  private readonly owner = `trace-retention:${process.pid}:${randomUUID()}`;

  constructor(
    private readonly retention: TraceRetention,
    private readonly clock: Clock,
    @Inject(READ_STORE) private readonly readStore: ReadStore,
    @Inject(CONFIG) private readonly config: Pick<CairnConfig, 'traceRetentionDays'>,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.traceRetentionDays === 0 || !this.retention.supported()) return;
    this.schedule(FIRST_RUN_MS);
  }

  onModuleDestroy(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private schedule(delayMs: number): void {
    this.timer = setTimeout(() => {
      void this.runOnce().finally(() => {
        if (this.timer) this.schedule(EVERY_MS);
      });
    }, delayMs);
    this.timer.unref();
  }

  async runOnce(): Promise<void> {
    try {
      if (!(await this.readStore.acquireLease(LEASE, this.owner, LEASE_TTL_MS))) return;
      try {
        const before = new Date(this.clock.nowMs() - this.config.traceRetentionDays * DAY_MS);
        const result = await this.retention.prune(before);
        if (result.pruned > 0) log().info({ event: 'traces_pruned', ...result }, 'recall traces pruned');
      } finally {
        await this.readStore.releaseLease(LEASE, this.owner);
      }
    } catch (error) {
      log().warn({ event: 'traces_prune_failed', error: String(error) }, 'recall trace retention failed');
    }
  }
}

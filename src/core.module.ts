import {
  Global,
  Logger,
  Module,
  type DynamicModule,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
  Inject,
} from '@nestjs/common';
import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import { Clock, SystemClock } from './common/clock';
import { IdGenerator } from './common/id-generator';
import { Consistency } from './commands/shared/consistency';
import { OrganizationLoader } from './commands/shared/organization-loader';
import { StreamCommandExecutor } from './commands/shared/stream-command-executor';
import { ErasedMemoryItems } from './commands/memory/erased-memory-items';
import type { CairnConfig } from './config/config';
import { EVENT_STORE, SEALED_EVENT_STORE } from './infrastructure/event-store/event-store.port';
import { DATA_KEY_STORE } from './infrastructure/erasure/data-key-store.port';
import { READ_STORE } from './infrastructure/read-store/read-store.port';
import { SEARCH_INDEX } from './infrastructure/search/search-index.port';
import { openStores, STORES, type OpenStoresOptions, type Stores } from './infrastructure/stores';
import { projectionsFor } from './projections/all-projections';
import { Embeddings, embeddingsFor } from './ai/embeddings';
import { ProjectionRunner } from './projections/projection-runner';
import { RunnerConsistency } from './projections/runner-consistency';

export const CONFIG = Symbol('CONFIG');

export interface CoreOptions {
  config: CairnConfig;
  /** Override the clock (tests). */
  clock?: Clock;
  /** Opened stores to use instead of opening them from the config (tests, benchmarks). */
  stores?: Stores;
  /** How the stores are opened from the config. */
  storeOptions?: OpenStoresOptions;
}

/** Stores, the projection runner, ids, the clock and the command executor: shared by the server and the CLI. */
@Global()
@Module({})
export class CoreModule implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('core');

  constructor(
    @Inject(STORES) private readonly stores: Stores,
    private readonly runner: ProjectionRunner,
  ) {}

  static forRoot(options: CoreOptions): DynamicModule {
    return {
      module: CoreModule,
      providers: [
        { provide: CONFIG, useValue: options.config },
        { provide: Clock, useValue: options.clock ?? new SystemClock() },
        {
          provide: STORES,
          useFactory: () => options.stores ?? openStores(options.config, options.storeOptions),
        },
        { provide: EVENT_STORE, useFactory: (s: Stores) => s.eventStore, inject: [STORES] },
        {
          provide: SEALED_EVENT_STORE,
          useFactory: (s: Stores) => s.sealedEventStore ?? s.eventStore,
          inject: [STORES],
        },
        { provide: DATA_KEY_STORE, useFactory: (s: Stores) => s.dataKeys ?? null, inject: [STORES] },
        { provide: READ_STORE, useFactory: (s: Stores) => s.readStore, inject: [STORES] },
        { provide: SEARCH_INDEX, useFactory: (s: Stores) => s.searchIndex, inject: [STORES] },
        { provide: Embeddings, useValue: embeddingsFor(options.config) },
        {
          provide: ProjectionRunner,
          useFactory: (s: Stores, embeddings: Embeddings) => {
            const logger = new Logger('projections');
            return new ProjectionRunner(
              s.eventStore,
              s.readStore,
              s.searchIndex,
              projectionsFor(embeddings),
              {
                owner: `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`,
                onError: (name, error) => logger.error(`projection ${name} failed: ${describe(error)}`),
              },
            );
          },
          inject: [STORES, Embeddings],
        },
        {
          provide: Consistency,
          useFactory: (runner: ProjectionRunner) =>
            new RunnerConsistency(runner, options.config.consistencyWaitMs),
          inject: [ProjectionRunner],
        },
        IdGenerator,
        StreamCommandExecutor,
        ErasedMemoryItems,
        OrganizationLoader,
      ],
      exports: [
        CONFIG,
        Embeddings,
        Clock,
        STORES,
        EVENT_STORE,
        SEALED_EVENT_STORE,
        DATA_KEY_STORE,
        READ_STORE,
        SEARCH_INDEX,
        ProjectionRunner,
        Consistency,
        IdGenerator,
        StreamCommandExecutor,
        ErasedMemoryItems,
        OrganizationLoader,
      ],
    };
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.runner.prepare();
    this.runner.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.runner.stop();
    await this.stores.close();
    this.logger.log('stores closed');
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}

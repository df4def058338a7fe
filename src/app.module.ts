import { Module, type DynamicModule, type Type } from '@nestjs/common';
import { CommandsModule } from './commands/commands.module';
import { CoreModule, type CoreOptions } from './core.module';
import { HttpModule } from './http/http.module';
import { TraceRetention } from './lifecycle/trace-retention';
import { TraceRetentionScheduler } from './lifecycle/trace-retention.scheduler';
import { McpModule } from './mcp/mcp.module';
import { QueriesModule } from './queries/queries.module';

/** The HTTP server: core + write side + controllers. */
@Module({})
export class AppModule {
  /** `extraModules`: more controllers on the same pipeline (tests mount probes this way). */
  static forRoot(options: CoreOptions, extraModules: Array<Type | DynamicModule> = []): DynamicModule {
    return {
      module: AppModule,
      imports: [
        CoreModule.forRoot(options),
        CommandsModule,
        QueriesModule,
        HttpModule,
        McpModule,
        ...extraModules,
      ],
      providers: [TraceRetention, TraceRetentionScheduler],
    };
  }
}

import { Module, type DynamicModule } from '@nestjs/common';
import { CommandsModule } from './commands/commands.module';
import { CoreModule, type CoreOptions } from './core.module';
import { HttpModule } from './http/http.module';

/** The HTTP server: core + write side + controllers. */
@Module({})
export class AppModule {
  static forRoot(options: CoreOptions): DynamicModule {
    return { module: AppModule, imports: [CoreModule.forRoot(options), CommandsModule, HttpModule] };
  }
}

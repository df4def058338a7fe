import { Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { AdminHttpModule } from '../admin/admin-http.module';
import { ConsoleAuthGuard } from './console-auth.guard';
import { ConsoleLoginController } from './console-login.controller';
import { ConsolePagesController } from './console-pages.controller';

/** The reviewer's console at /admin/console (docs/admin.md#console). */
@Module({
  imports: [CqrsModule, AdminHttpModule],
  controllers: [ConsoleLoginController, ConsolePagesController],
  providers: [ConsoleAuthGuard],
})
export class ConsoleHttpModule {}

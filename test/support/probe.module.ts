import { ApiExcludeController } from '@nestjs/swagger';
import { Body, Controller, HttpCode, Module, Post, UseGuards } from '@nestjs/common';
import { IsInt, IsString, Length, Max, Min } from 'class-validator';
import {
  ConnectorAuthGuard,
  CurrentConnector,
  RequireCapabilities,
} from '../../src/http/auth/connector-auth.guard';
import type { ConnectorPrincipal } from '../../src/http/auth/connector-principal';
import { HttpModule } from '../../src/http/http.module';

class ProbeBody {
  @IsString() @Length(1, 10) name!: string;
  @IsInt() @Min(1) @Max(100) count!: number;
}

/** A test-only endpoint on the real HTTP pipeline: JSON parser, validation pipe, auth guard, error filter. */
// Test-only routes: not part of the API, so not in /openapi.json.
@ApiExcludeController()
@Controller('probe')
class ProbeController {
  @Post('open')
  @HttpCode(200)
  open(@Body() body: ProbeBody): object {
    return { ok: true, echo: body };
  }

  @Post('guarded')
  @HttpCode(200)
  @UseGuards(ConnectorAuthGuard)
  @RequireCapabilities('memory_search')
  guarded(@CurrentConnector() connector: ConnectorPrincipal, @Body() body: ProbeBody): object {
    return { ok: true, organization_id: connector.organization_id, echo: body };
  }
}

@Module({ imports: [HttpModule], controllers: [ProbeController] })
export class ProbeModule {}

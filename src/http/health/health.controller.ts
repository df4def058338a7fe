import { Controller, Get, Inject, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { STORES, type Stores } from '../../infrastructure/stores';
import { ProjectionRunner } from '../../projections/projection-runner';
import { HealthResponse, ReadyResponse } from './health.dto';

/** Liveness and readiness for orchestrators. */
@ApiTags('operations')
@Controller()
export class HealthController {
  constructor(
    @Inject(STORES) private readonly stores: Stores,
    private readonly runner: ProjectionRunner,
  ) {}

  @Get('health')
  @ApiOperation({ summary: 'Liveness: the process answers.' })
  @ApiOkResponse({ type: HealthResponse })
  health(): HealthResponse {
    return { ok: true, status: 'alive' };
  }

  @Get('ready')
  @ApiOperation({ summary: 'Readiness: every store answers; projection lag is reported.' })
  @ApiOkResponse({ type: ReadyResponse })
  @ApiServiceUnavailableResponse({ type: ReadyResponse, description: 'a store is unreachable' })
  async ready(@Res({ passthrough: true }) reply: FastifyReply): Promise<ReadyResponse> {
    const check = async (ping: () => Promise<void>): Promise<'ok' | 'unreachable'> =>
      ping().then(
        () => 'ok' as const,
        () => 'unreachable' as const,
      );
    const [eventStore, readStore, searchIndex] = await Promise.all([
      check(() => this.stores.eventStore.ping()),
      check(() => this.stores.readStore.ping()),
      check(() => this.stores.searchIndex.ping()),
    ]);
    const ok = eventStore === 'ok' && readStore === 'ok' && searchIndex === 'ok';
    const projections = ok
      ? (await this.runner.status()).map(({ name, position, head, lag, lease_owner }) => ({
          name,
          position,
          head,
          lag,
          running: lease_owner !== null,
        }))
      : [];
    if (!ok) void reply.status(503);
    return {
      ok,
      status: ok ? 'ready' : 'unavailable',
      engines: this.stores.engines,
      stores: { event_store: eventStore, read_store: readStore, search_index: searchIndex },
      projections,
    };
  }
}

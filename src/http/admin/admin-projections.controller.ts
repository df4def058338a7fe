import { Body, Controller, Get, HttpCode, Post, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ValidationFailedError } from '../../common/errors';
import { ProjectionRunner } from '../../projections/projection-runner';
import { RebuildProjectionsBody } from './admin.dto';
import { OperatorAuthGuard, RequireScope } from './operator-auth.guard';

/** How long a rebuild may take before the answer stops waiting (it keeps going in the lease holder). */
const REBUILD_TIMEOUT_MS = 10 * 60 * 1000;

/** Admin API: the read models' projections. */
@ApiTags('admin')
@ApiBearerAuth('operator')
@Controller('admin/api/v1/projections')
@UseGuards(OperatorAuthGuard)
export class AdminProjectionsController {
  constructor(private readonly runner: ProjectionRunner) {}

  @Get()
  @RequireScope('read')
  @ApiOperation({ summary: 'Each projection: position, head, lag, lease holder.' })
  async status(): Promise<object> {
    return { ok: true, projections: await this.runner.status() };
  }

  @Post('rebuild')
  @HttpCode(200)
  @RequireScope('projections:rebuild')
  @ApiOperation({ summary: 'Drop read models (default: all) and replay every event into them.' })
  async rebuild(@Body() body: RebuildProjectionsBody): Promise<object> {
    const known = this.runner.projections.map((p) => p.name);
    const unknown = (body.names ?? []).filter((name) => !known.includes(name));
    if (unknown.length > 0) {
      throw new ValidationFailedError(`unknown projection; known: ${known.join(', ')}`, [
        { field: 'names', message: `each one of ${known.join(', ')}` },
      ]);
    }
    return { ok: true, rebuilt: await this.runner.rebuild(body.names, REBUILD_TIMEOUT_MS) };
  }
}

import { ApiProperty } from '@nestjs/swagger';

export class HealthResponse {
  @ApiProperty({ example: true }) ok!: boolean;
  @ApiProperty({ example: 'alive' }) status!: 'alive';
}

class EnginesView {
  @ApiProperty({ enum: ['sqlite', 'eventstoredb'] }) event_store!: string;
  @ApiProperty({ enum: ['sqlite', 'mongodb'] }) read_store!: string;
  @ApiProperty({ enum: ['sqlite-fts5', 'elasticsearch'] }) search_index!: string;
}

class StoresView {
  @ApiProperty({ enum: ['ok', 'unreachable'] }) event_store!: 'ok' | 'unreachable';
  @ApiProperty({ enum: ['ok', 'unreachable'] }) read_store!: 'ok' | 'unreachable';
  @ApiProperty({ enum: ['ok', 'unreachable'] }) search_index!: 'ok' | 'unreachable';
}

class ProjectionLagView {
  @ApiProperty() name!: string;
  @ApiProperty({ type: 'integer', description: 'global position applied' }) position!: number;
  @ApiProperty({ type: 'integer', description: 'global position of the newest event' }) head!: number;
  @ApiProperty({ type: 'integer', description: 'head - position' }) lag!: number;
  @ApiProperty({ description: 'some process holds the projection lease' }) running!: boolean;
}

export class ReadyResponse {
  @ApiProperty() ok!: boolean;
  @ApiProperty({ enum: ['ready', 'unavailable'] }) status!: 'ready' | 'unavailable';
  @ApiProperty({ type: EnginesView }) engines!: EnginesView;
  @ApiProperty({ type: StoresView }) stores!: StoresView;
  @ApiProperty({ type: [ProjectionLagView] }) projections!: ProjectionLagView[];
}

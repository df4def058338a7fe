import { ApiProperty } from '@nestjs/swagger';

export class ConnectorSelfResponse {
  @ApiProperty({ example: true }) ok!: true;
  @ApiProperty({ type: 'integer' }) connector_id!: number;
  @ApiProperty({ type: 'integer' }) organization_id!: number;
  @ApiProperty() name!: string;
  @ApiProperty({ description: 'public client key; scopes tool_private memory' }) client_key!: string;
  @ApiProperty({ type: [String], example: ['memory_search', 'assistant_reply'] }) capabilities!: string[];
  @ApiProperty({ enum: ['strict', 'standard'] }) grounding_policy!: string;
}

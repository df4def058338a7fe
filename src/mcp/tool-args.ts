import { ApiProperty } from '@nestjs/swagger';
import { IsInt, Max, Min } from 'class-validator';

/** The path ids of spec §4.2 and §4.7 as tool arguments (REST takes them from the path). */
export class ItemIdArgs {
  @ApiProperty({ type: 'integer', minimum: 1, description: 'a memory_item_id from memory_search' })
  @IsInt()
  @Min(1)
  @Max(Number.MAX_SAFE_INTEGER)
  memory_item_id!: number;
}

export class MessageIdArgs {
  @ApiProperty({ type: 'integer', minimum: 1, description: 'the message_id of a successful reply_request' })
  @IsInt()
  @Min(1)
  @Max(Number.MAX_SAFE_INTEGER)
  message_id!: number;
}

/** Their JSON Schemas (the REST API documents these ids as integer path parameters). */
export const ITEM_ID_SCHEMA = {
  type: 'object',
  properties: {
    memory_item_id: { type: 'integer', minimum: 1, description: 'a memory_item_id from memory_search' },
  },
  required: ['memory_item_id'],
  additionalProperties: false,
};
export const MESSAGE_ID_SCHEMA = {
  type: 'object',
  properties: {
    message_id: { type: 'integer', minimum: 1, description: 'the message_id of a successful reply_request' },
  },
  required: ['message_id'],
  additionalProperties: false,
};

import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsIn,
  IsInt,
  IsISO8601,
  IsObject,
  IsString,
  Length,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { NOT_BLANK, Optional } from '../dto-rules';
import { BoundedJsonObject } from './bounded-json-object';

/** Bounds of a reply request (documented in docs/api.md): out of bounds is 422, never a silent clamp. */
export const REPLY_BOUNDS = {
  key: 200,
  threadId: 200,
  subject: 500,
  address: 320,
  text: 20_000,
  historyItems: 50,
  historyRole: 40,
  historyText: 5_000,
  metadataBytes: 4_096,
} as const;

export const REPLY_CHANNELS = ['email', 'chat', 'sms', 'social', 'web', 'voice', 'other'] as const;
export const RESPONSE_MODES = ['suggested_reply'] as const;

export class HistoryItemBody {
  @ApiProperty({
    maxLength: REPLY_BOUNDS.historyRole,
    description: 'any value; normalized to customer, organization, assistant, agent or other',
  })
  @IsString()
  @Length(1, REPLY_BOUNDS.historyRole)
  role!: string;

  @ApiProperty({ maxLength: REPLY_BOUNDS.historyText })
  @IsString()
  @MaxLength(REPLY_BOUNDS.historyText)
  text!: string;
}

export class ReplyPayloadBody {
  @ApiProperty({ maxLength: REPLY_BOUNDS.text, description: 'the latest message (required)' })
  @IsString()
  @Length(1, REPLY_BOUNDS.text)
  @Matches(NOT_BLANK, { message: 'text must not be blank' })
  text!: string;

  @ApiPropertyOptional({ maxLength: REPLY_BOUNDS.subject })
  @Optional()
  @IsString()
  @MaxLength(REPLY_BOUNDS.subject)
  subject?: string;

  @ApiPropertyOptional({ maxLength: REPLY_BOUNDS.address, description: 'sender address' })
  @Optional()
  @IsString()
  @MaxLength(REPLY_BOUNDS.address)
  from?: string;

  @ApiPropertyOptional({ maxLength: REPLY_BOUNDS.address, description: 'recipient address' })
  @Optional()
  @IsString()
  @MaxLength(REPLY_BOUNDS.address)
  to?: string;

  @ApiPropertyOptional({ description: 'ISO 8601 UTC timestamp' })
  @Optional()
  @IsISO8601({ strict: true })
  sent_at?: string;

  @ApiPropertyOptional({
    type: [HistoryItemBody],
    maxItems: REPLY_BOUNDS.historyItems,
    description: 'oldest first; the 10 most recent are used',
  })
  @Optional()
  @IsArray()
  @ArrayMaxSize(REPLY_BOUNDS.historyItems)
  @ValidateNested({ each: true })
  @Type(() => HistoryItemBody)
  history?: HistoryItemBody[];
}

export class ReplyRequestBody {
  @ApiPropertyOptional({
    type: 'integer',
    description: 'required when the organization has more than one assistant',
  })
  @Optional()
  @IsInt()
  @Min(1)
  @Max(Number.MAX_SAFE_INTEGER)
  chatbot_id?: number;

  @ApiProperty({ maxLength: REPLY_BOUNDS.threadId })
  @IsString()
  @Length(1, REPLY_BOUNDS.threadId)
  @Matches(NOT_BLANK, { message: 'external_thread_id must not be blank' })
  external_thread_id!: string;

  @ApiPropertyOptional({
    maxLength: REPLY_BOUNDS.key,
    description: 'send idempotency_key or external_message_id (or both)',
  })
  @Optional()
  @IsString()
  @Length(1, REPLY_BOUNDS.key)
  @Matches(NOT_BLANK, { message: 'external_message_id must not be blank' })
  external_message_id?: string;

  @ApiPropertyOptional({ maxLength: REPLY_BOUNDS.key })
  @Optional()
  @IsString()
  @Length(1, REPLY_BOUNDS.key)
  @Matches(NOT_BLANK, { message: 'idempotency_key must not be blank' })
  idempotency_key?: string;

  @ApiPropertyOptional({ enum: REPLY_CHANNELS, default: 'email' })
  @Optional()
  @IsIn(REPLY_CHANNELS)
  channel?: (typeof REPLY_CHANNELS)[number];

  @ApiPropertyOptional({ enum: RESPONSE_MODES, default: 'suggested_reply' })
  @Optional()
  @IsIn(RESPONSE_MODES)
  response_mode?: (typeof RESPONSE_MODES)[number];

  @ApiProperty({ type: ReplyPayloadBody })
  @IsObject()
  @ValidateNested()
  @Type(() => ReplyPayloadBody)
  payload!: ReplyPayloadBody;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: `free-form JSON object, at most ${REPLY_BOUNDS.metadataBytes} bytes`,
  })
  @Optional()
  @IsObject()
  @BoundedJsonObject(REPLY_BOUNDS.metadataBytes)
  metadata?: Record<string, unknown>;
}

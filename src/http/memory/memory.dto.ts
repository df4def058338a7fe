import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsObject,
  IsString,
  IsUrl,
  Length,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { MAX_GIVEN_SUMMARY_CHARS } from '../../commands/memory/document-content';
import { PROPOSED_AUTHORITY_ROLES, PROPOSED_TYPES } from '../../commands/memory/propose-memory.command';
import { SAVE_KINDS } from '../../commands/memory/save-memory.command';
import { NOT_BLANK, Optional } from '../dto-rules';

const VISIBILITIES = ['tool_private', 'organization_internal'] as const;

const URL_OPTIONS = { protocols: ['http', 'https'], require_protocol: true, require_tld: false };

/** Bounds (documented in docs/api.md): out of bounds is 422, never a silent clamp. */
export const MEMORY_BOUNDS = {
  query: 2000,
  title: 300,
  saveContent: 100_000,
  proposalContent: 50_000,
  summary: MAX_GIVEN_SUMMARY_CHARS,
  idempotencyKey: 200,
  uri: 2048,
  usageIds: 100,
} as const;

export class SearchMemoryBody {
  @ApiProperty({ maxLength: MEMORY_BOUNDS.query, example: 'opening hours on Saturday' })
  @IsString()
  @Length(1, MEMORY_BOUNDS.query)
  @Matches(NOT_BLANK, { message: 'query must not be blank' })
  query!: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 100, default: 10 })
  @Optional()
  @IsInt()
  @Min(1)
  @Max(100)
  limit?: number;

  @ApiPropertyOptional({ default: false })
  @Optional()
  @IsBoolean()
  include_context_package?: boolean;

  @ApiPropertyOptional({
    enum: VISIBILITIES,
    description: 'default: organization items plus this connector’s private items',
  })
  @Optional()
  @IsIn(VISIBILITIES)
  visibility?: (typeof VISIBILITIES)[number];
}

export class SaveMemoryBody {
  @ApiProperty({ enum: SAVE_KINDS })
  @IsIn(SAVE_KINDS)
  kind!: (typeof SAVE_KINDS)[number];

  @ApiProperty({ maxLength: MEMORY_BOUNDS.title })
  @IsString()
  @Length(1, MEMORY_BOUNDS.title)
  @Matches(NOT_BLANK, { message: 'title must not be blank' })
  title!: string;

  @ApiProperty({ maxLength: MEMORY_BOUNDS.saveContent })
  @IsString()
  @Length(1, MEMORY_BOUNDS.saveContent)
  @Matches(NOT_BLANK, { message: 'content must not be blank' })
  content!: string;

  @ApiPropertyOptional({
    maxLength: MEMORY_BOUNDS.summary,
    description: 'stored as given (trimmed); without it the summary is the start of the content',
  })
  @Optional()
  @IsString()
  @Length(1, MEMORY_BOUNDS.summary)
  @Matches(NOT_BLANK, { message: 'summary must not be blank' })
  summary?: string;

  @ApiPropertyOptional({ enum: VISIBILITIES, default: 'tool_private' })
  @Optional()
  @IsIn(VISIBILITIES)
  visibility?: (typeof VISIBILITIES)[number];

  @ApiPropertyOptional({ pattern: '^[A-Za-z0-9._:-]{1,200}$' })
  @Optional()
  @IsString()
  @Matches(/^[A-Za-z0-9._:-]{1,200}$/, { message: 'idempotency_key must be 1-200 of A-Z a-z 0-9 . _ : -' })
  idempotency_key?: string;

  @ApiPropertyOptional({ maxLength: MEMORY_BOUNDS.uri })
  @Optional()
  @IsString()
  @MaxLength(MEMORY_BOUNDS.uri)
  @IsUrl(URL_OPTIONS, { message: 'source_uri must be an http(s) URL' })
  source_uri?: string;
}

export class ProposedPolicyBody {
  @ApiPropertyOptional({
    default: true,
    description: 'advisory: every proposal is reviewed before it affects answers',
  })
  @Optional()
  @IsBoolean()
  review_required?: boolean;

  @ApiPropertyOptional({
    default: false,
    description: 'true: approved as customer_safe (customer-facing evidence); false: internal',
  })
  @Optional()
  @IsBoolean()
  customer_safe_candidate?: boolean;

  @ApiPropertyOptional({
    enum: PROPOSED_AUTHORITY_ROLES,
    default: 'authoritative',
    description: 'the authority the approved item gets: approved_source, reference or unverified',
  })
  @Optional()
  @IsIn(PROPOSED_AUTHORITY_ROLES)
  authority_role?: (typeof PROPOSED_AUTHORITY_ROLES)[number];
}

export class ProposeMemoryBody {
  @ApiProperty({ maxLength: MEMORY_BOUNDS.title })
  @IsString()
  @Length(1, MEMORY_BOUNDS.title)
  @Matches(NOT_BLANK, { message: 'title must not be blank' })
  title!: string;

  @ApiProperty({ maxLength: MEMORY_BOUNDS.proposalContent })
  @IsString()
  @Length(1, MEMORY_BOUNDS.proposalContent)
  @Matches(NOT_BLANK, { message: 'content must not be blank' })
  content!: string;

  @ApiPropertyOptional({ enum: PROPOSED_TYPES, default: 'fact' })
  @Optional()
  @IsIn(PROPOSED_TYPES)
  proposed_type?: (typeof PROPOSED_TYPES)[number];

  @ApiPropertyOptional({ maxLength: MEMORY_BOUNDS.uri })
  @Optional()
  @IsString()
  @MaxLength(MEMORY_BOUNDS.uri)
  @IsUrl(URL_OPTIONS, { message: 'source_uri must be an http(s) URL' })
  source_uri?: string;

  @ApiPropertyOptional({ type: ProposedPolicyBody })
  @Optional()
  @IsObject({ message: 'proposed_policy must be an object' })
  @ValidateNested()
  @Type(() => ProposedPolicyBody)
  proposed_policy?: ProposedPolicyBody;
}

export class ReportUsageBody {
  @ApiProperty({ type: 'integer', description: 'the trace_id a search returned' })
  @IsInt()
  @Min(1)
  @Max(Number.MAX_SAFE_INTEGER)
  trace_id!: number;

  @ApiPropertyOptional({ type: 'integer', isArray: true, maxItems: MEMORY_BOUNDS.usageIds })
  @Optional()
  @IsArray()
  @ArrayMaxSize(MEMORY_BOUNDS.usageIds)
  @IsInt({ each: true })
  @Min(1, { each: true })
  used_item_ids?: number[];

  @ApiPropertyOptional({ type: 'integer', isArray: true, maxItems: MEMORY_BOUNDS.usageIds })
  @Optional()
  @IsArray()
  @ArrayMaxSize(MEMORY_BOUNDS.usageIds)
  @IsInt({ each: true })
  @Min(1, { each: true })
  ignored_item_ids?: number[];
}

/** `POST …/memory/items/{id}/forget`: why the connector forgets an item it saved (kept in the erasure event). */
export class ForgetMemoryBody {
  @ApiPropertyOptional({ maxLength: 500, description: 'why (recorded with the erasure; never the content)' })
  @Optional()
  @IsString()
  @MaxLength(500)
  reason?: string;
}

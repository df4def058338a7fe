import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsString,
  IsUrl,
  Length,
  Matches,
  Min,
  ValidateNested,
} from 'class-validator';
import { MAX_DOCUMENT_CHARS } from '../../commands/memory/document-content';
import { NOT_BLANK, Optional } from '../dto-rules';

const URL_OPTIONS = { protocols: ['http', 'https'], require_protocol: true, require_tld: false };
const AUDIENCES = ['customer_safe', 'internal'] as const;
const AUTHORITIES = ['approved_source', 'reference', 'unverified'] as const;
const POLICIES = ['strict', 'standard'] as const;

export class CreateOrganizationBody {
  @ApiProperty({ maxLength: 200, example: 'Harbor Dental' })
  @IsString()
  @Length(1, 200)
  @Matches(NOT_BLANK, { message: 'name must not be blank' })
  name!: string;

  @ApiPropertyOptional({ maxLength: 100, description: 'URL slug (default: derived from the name)' })
  @Optional()
  @IsString()
  @Length(1, 100)
  slug?: string;

  @ApiPropertyOptional({ maxLength: 2048, example: 'https://harbor.example' })
  @Optional()
  @IsUrl(URL_OPTIONS)
  website_url?: string;
}

export class CreateChatbotBody {
  @ApiProperty({ maxLength: 200, example: 'Front desk' })
  @IsString()
  @Length(1, 200)
  @Matches(NOT_BLANK, { message: 'name must not be blank' })
  name!: string;

  @ApiPropertyOptional({ maxLength: 253, description: 'the website host the assistant is embedded on' })
  @Optional()
  @IsString()
  @Length(1, 253)
  allowed_domain?: string;
}

export class CreateConnectorBody {
  @ApiProperty({ maxLength: 200, example: 'Help desk' })
  @IsString()
  @Length(1, 200)
  @Matches(NOT_BLANK, { message: 'name must not be blank' })
  name!: string;

  @ApiProperty({
    type: [String],
    example: ['memory_search', 'assistant_reply'],
    description:
      'memory_search, memory_save, memory_propose, assistant_reply, assistant_feedback, assistant_tool:<key>',
  })
  @IsArray()
  @ArrayMaxSize(64)
  @IsString({ each: true })
  capabilities!: string[];

  @ApiPropertyOptional({ enum: POLICIES, default: 'strict' })
  @Optional()
  @IsIn(POLICIES)
  grounding_policy?: (typeof POLICIES)[number];
}

export class DocumentBody {
  @ApiProperty({ maxLength: 500, description: 'stable key: ingesting the same key again revises the item' })
  @IsString()
  @Length(1, 500)
  @Matches(NOT_BLANK, { message: 'document_key must not be blank' })
  document_key!: string;

  @ApiProperty({ maxLength: 300 })
  @IsString()
  @Length(1, 300)
  title!: string;

  @ApiProperty({ maxLength: MAX_DOCUMENT_CHARS })
  @IsString()
  @Length(1, MAX_DOCUMENT_CHARS)
  content!: string;

  @ApiPropertyOptional({ enum: ['markdown', 'text'], default: 'markdown' })
  @Optional()
  @IsIn(['markdown', 'text'])
  format?: 'markdown' | 'text';

  @ApiPropertyOptional({ enum: AUDIENCES, default: 'internal' })
  @Optional()
  @IsIn(AUDIENCES)
  audience?: (typeof AUDIENCES)[number];

  @ApiPropertyOptional({ enum: AUTHORITIES, default: 'reference' })
  @Optional()
  @IsIn(AUTHORITIES)
  authority_level?: (typeof AUTHORITIES)[number];

  @ApiPropertyOptional({ maxLength: 2048 })
  @Optional()
  @IsUrl(URL_OPTIONS)
  source_uri?: string;
}

export class IngestDocumentsBody {
  @ApiProperty({ type: [DocumentBody], minItems: 1, maxItems: 100 })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(100)
  @ValidateNested({ each: true })
  @Type(() => DocumentBody)
  documents!: DocumentBody[];

  @ApiPropertyOptional({
    type: [String],
    description: 'unsafe-content flags (kinds or rules) accepted, as memory:ingest --allow-flag',
  })
  @Optional()
  @IsArray()
  @ArrayMaxSize(20)
  @IsString({ each: true })
  @Matches(/^[a-z0-9_@/.-]{1,100}$/, { each: true })
  allow_flags?: string[];
}

export class ApproveProposalBody {
  @ApiPropertyOptional({
    default: false,
    description:
      'a correction of an item revised since the reply: replace the cited text in the current revision',
  })
  @Optional()
  @IsBoolean()
  rebase?: boolean;

  @ApiPropertyOptional({
    enum: AUDIENCES,
    description: "a new item's audience, whatever the proposal says (default: the proposal's)",
  })
  @Optional()
  @IsIn(AUDIENCES)
  audience?: (typeof AUDIENCES)[number];
}

export class EraseMemoryItemBody {
  @ApiPropertyOptional({ maxLength: 2000, description: 'why (kept in the erasure event; never the content)' })
  @Optional()
  @IsString()
  @Length(1, 2000)
  reason?: string;
}

export class RejectProposalBody {
  @ApiPropertyOptional({ maxLength: 2000, description: 'why (kept in the history)' })
  @Optional()
  @IsString()
  @Length(1, 2000)
  reason?: string;
}

export class RebuildProjectionsBody {
  @ApiPropertyOptional({ type: [String], description: 'projection names (default: all)' })
  @Optional()
  @IsArray()
  @ArrayMinSize(1)
  @IsString({ each: true })
  names?: string[];
}

export class SetPlanLimitBody {
  @ApiProperty({ type: 'integer', minimum: 0 })
  @IsInt()
  @Min(0)
  monthly_replies!: number;
}

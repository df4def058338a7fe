import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsString, Length, Matches, MaxLength } from 'class-validator';
import {
  FEEDBACK_OUTCOMES,
  FEEDBACK_RATINGS,
  type FeedbackOutcome,
  type FeedbackRating,
} from '../../events/replies/feedback.events';
import { NOT_BLANK, Optional } from '../dto-rules';

/** Bounds of a feedback request (documented in docs/api.md): out of bounds is 422, never a silent clamp. */
export const FEEDBACK_BOUNDS = {
  /** feedback_kind and feedback_issue: 1–64 of a-z, 0-9 and `_`. */
  label: 64,
  suggestedAnswer: 20_000,
  note: 2_000,
  /** external_feedback_id and idempotency_key. */
  key: 200,
} as const;

const LABEL = /^[a-z0-9_]{1,64}$/;

/**
 * Spec §4.7. Send outcome or rating (or both, agreeing), and a retry identity: external_feedback_id or
 * idempotency_key (external_feedback_id wins when both are sent). The cross-field rules are the command's
 * (commands/replies/feedback-rules.ts); this checks each field alone.
 */
export class SubmitFeedbackBody {
  @ApiPropertyOptional({ enum: FEEDBACK_OUTCOMES, description: 'send outcome or rating (or both, agreeing)' })
  @Optional()
  @IsIn(FEEDBACK_OUTCOMES)
  outcome?: FeedbackOutcome;

  @ApiPropertyOptional({
    enum: FEEDBACK_RATINGS,
    description:
      'older clients: up → accepted; down → corrected with a suggested_answer, else rejected; none clears',
  })
  @Optional()
  @IsIn(FEEDBACK_RATINGS)
  rating?: FeedbackRating;

  @ApiPropertyOptional({ pattern: LABEL.source, example: 'answer_correction' })
  @Optional()
  @IsString()
  @Matches(LABEL, { message: `feedback_kind must be 1-${FEEDBACK_BOUNDS.label} of a-z, 0-9 and _` })
  feedback_kind?: string;

  @ApiPropertyOptional({ pattern: LABEL.source, example: 'not_factually_correct' })
  @Optional()
  @IsString()
  @Matches(LABEL, { message: `feedback_issue must be 1-${FEEDBACK_BOUNDS.label} of a-z, 0-9 and _` })
  feedback_issue?: string;

  @ApiPropertyOptional({
    maxLength: FEEDBACK_BOUNDS.suggestedAnswer,
    description: 'required (non-blank) for outcome corrected; becomes a pending memory proposal',
  })
  @Optional()
  @IsString()
  @MaxLength(FEEDBACK_BOUNDS.suggestedAnswer)
  suggested_answer?: string;

  @ApiPropertyOptional({ maxLength: FEEDBACK_BOUNDS.note })
  @Optional()
  @IsString()
  @MaxLength(FEEDBACK_BOUNDS.note)
  note?: string;

  @ApiPropertyOptional({
    maxLength: FEEDBACK_BOUNDS.key,
    description: 'retry identity (takes precedence over idempotency_key)',
  })
  @Optional()
  @IsString()
  @Length(1, FEEDBACK_BOUNDS.key)
  @Matches(NOT_BLANK, { message: 'external_feedback_id must not be blank' })
  external_feedback_id?: string;

  @ApiPropertyOptional({ maxLength: FEEDBACK_BOUNDS.key, description: 'alternative retry identity' })
  @Optional()
  @IsString()
  @Length(1, FEEDBACK_BOUNDS.key)
  @Matches(NOT_BLANK, { message: 'idempotency_key must not be blank' })
  idempotency_key?: string;
}

import { OpenAiGateway, ModelCallError } from '../../ai/openai-gateway';
import { ReplyComposer } from '../../ai/reply-composer';
import { ReplyReviewer } from '../../ai/reply-reviewer';
import type { CairnConfig } from '../../config/config';
import { ReplyAbort } from './reply-abort';

/** The two model roles of a reply, or null when not configured (then every reply is `assistant_runtime_unavailable`). */
export abstract class ReplyModels {
  abstract readonly composer: ReplyComposer | null;
  abstract readonly reviewer: ReplyReviewer | null;
}

export class ConfiguredReplyModels extends ReplyModels {
  readonly composer: ReplyComposer | null;
  readonly reviewer: ReplyReviewer | null;

  constructor(
    config: Pick<
      CairnConfig,
      'openaiBaseUrl' | 'openaiApiKey' | 'composerModel' | 'reviewerModel' | 'modelTimeoutMs'
    >,
  ) {
    super();
    const gateway = new OpenAiGateway({
      baseUrl: config.openaiBaseUrl,
      apiKey: config.openaiApiKey,
      timeoutMs: config.modelTimeoutMs,
    });
    this.composer = config.composerModel ? new ReplyComposer(gateway, config.composerModel) : null;
    this.reviewer = config.reviewerModel ? new ReplyReviewer(gateway, config.reviewerModel) : null;
  }
}

/**
 * The start-up warning when replies cannot work (no composer or no reviewer model configured), or null. Every reply
 * then answers `assistant_runtime_unavailable`, which no retry fixes: the operator must hear it at start.
 */
export function replyModelsWarning(
  config: Pick<CairnConfig, 'composerModel' | 'reviewerModel'>,
): string | null {
  const missing = [
    ...(config.composerModel ? [] : ['CAIRN_COMPOSER_MODEL']),
    ...(config.reviewerModel ? [] : ['CAIRN_REVIEWER_MODEL']),
  ];
  if (missing.length === 0) return null;
  return (
    `replies cannot work: no model is configured (${missing.join(' and ')} unset); every reply answers ` +
    'system_status assistant_runtime_unavailable (not retryable) until a composer and a reviewer model are set'
  );
}

/**
 * A model error as a reply outcome (the rows are in outcome-policy.ts; README "Reply outcomes"):
 * - 429 and 503 (the provider says "later", with its Retry-After) → `ai_temporarily_unavailable`, either role;
 * - timeout, unreachable, other 5xx → `ai_temporarily_unavailable` (composer) / `semantic_review_unavailable`
 *   (reviewer: the citation audit could not run, so the reply abstains, spec §4.6 rule 8);
 * - refused (4xx: bad key, unknown model) → `provider_unavailable`;
 * - broken output (non-JSON, off-schema, truncated, refused) → `assistant_answer_incomplete` (composer) /
 *   `semantic_review_unavailable` (reviewer): no verdict was given, a retry may get one. A reviewer that answers
 *   well-formed but not about this draft is a failed review (reply-drafting.ts), not broken output.
 */
export function modelAbort(role: 'composer' | 'reviewer', error: unknown): ReplyAbort {
  if (!(error instanceof ModelCallError)) return new ReplyAbort('assistant_runtime_failed', String(error));
  const detail = `${role}: ${error.kind}: ${error.message}`;
  const later = error.kind === 'rate_limited' || error.status === 503;
  if (later) return new ReplyAbort('ai_temporarily_unavailable', detail, false, error.retryAfterMs);
  switch (error.kind) {
    case 'timeout':
    case 'unreachable':
    case 'server_error':
      return new ReplyAbort(
        role === 'composer' ? 'ai_temporarily_unavailable' : 'semantic_review_unavailable',
        detail,
        false,
        error.retryAfterMs,
      );
    case 'rejected':
      return new ReplyAbort('provider_unavailable', detail);
    case 'malformed':
      return new ReplyAbort(
        role === 'composer' ? 'assistant_answer_incomplete' : 'semantic_review_unavailable',
        detail,
      );
    case 'canceled':
      return new ReplyAbort('assistant_run_canceled', detail);
  }
}

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
 * A model error as a reply outcome. Transport faults (timeout, unreachable, 5xx) are temporary; a rate limit or a
 * refused request (4xx: bad key, unknown model) is the provider's; a broken answer is the role's own failure.
 */
export function modelAbort(role: 'composer' | 'reviewer', error: unknown): ReplyAbort {
  if (!(error instanceof ModelCallError)) return new ReplyAbort('assistant_runtime_failed', String(error));
  const detail = `${role}: ${error.kind}: ${error.message}`;
  switch (error.kind) {
    case 'timeout':
    case 'unreachable':
    case 'server_error':
      // The review is the citation audit: when it cannot run, the reply abstains (spec §4.6 rule 8).
      return new ReplyAbort(
        role === 'composer' ? 'ai_temporarily_unavailable' : 'semantic_review_unavailable',
        detail,
      );
    case 'rate_limited':
    case 'rejected':
      return new ReplyAbort('provider_unavailable', detail);
    case 'malformed':
      return new ReplyAbort(
        role === 'composer' ? 'assistant_answer_incomplete' : 'semantic_review_failed',
        detail,
      );
    case 'canceled':
      return new ReplyAbort('assistant_run_canceled', detail);
  }
}

import type { SystemStatusCode } from '../../src/commands/replies/outcome-policy';
import { reply, type ModelServer } from './model-server';

export interface ModelFailure {
  code: SystemStatusCode;
  why: string;
  /** Scripts the model server so the next reply fails this way. */
  script: () => void;
}

/** Model faults and verdicts, each with the §7 code a reply gets for it (needs CAIRN_MODEL_TIMEOUT_MS short). */
export function modelFailures(server: () => ModelServer): ModelFailure[] {
  const model = {
    script: {
      draft: (...a: Parameters<ModelServer['script']['draft']>) => server().script.draft(...a),
      review: (...a: Parameters<ModelServer['script']['review']>) => server().script.review(...a),
    },
  };
  return [
    {
      code: 'ai_temporarily_unavailable',
      why: 'composer 500',
      script: () => model.script.draft(reply.status(500)),
    },
    {
      code: 'ai_temporarily_unavailable',
      why: 'composer timeout',
      script: () => model.script.draft(reply.hang()),
    },
    {
      code: 'provider_unavailable',
      why: 'composer 429',
      script: () => model.script.draft(reply.status(429)),
    },
    {
      code: 'provider_unavailable',
      why: 'composer 401 (bad key)',
      script: () => model.script.draft(reply.status(401)),
    },
    {
      code: 'assistant_answer_incomplete',
      why: 'composer answers non-JSON',
      script: () => model.script.draft(reply.raw('not json at all')),
    },
    {
      code: 'assistant_answer_incomplete',
      why: 'composer output truncated',
      script: () => model.script.draft(reply.raw('{"answer":', { finishReason: 'length' })),
    },
    {
      code: 'selected_references_invalid',
      why: 'the draft cites an id outside its evidence',
      script: () => model.script.draft(reply.citeUnknown()),
    },
    {
      code: 'semantic_review_failed',
      why: 'the reviewer finds unsupported claims',
      script: () => model.script.review(reply.unsupported()),
    },
    {
      code: 'semantic_review_failed',
      why: 'the reviewer answers garbage',
      script: () => model.script.review(reply.raw('[]')),
    },
    {
      code: 'semantic_review_unavailable',
      why: 'the reviewer times out',
      script: () => model.script.review(reply.hang()),
    },
    {
      code: 'semantic_review_unavailable',
      why: 'the reviewer answers 503',
      script: () => model.script.review(reply.status(503)),
    },
  ];
}
